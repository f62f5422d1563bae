"""Every block's config as a suite writes it: `expect:`, each gate block under an agent test, `tool_quality:`
and `security:`. Light on purpose: loading a suite builds these, scoring them lives in gates/ and checks/."""
