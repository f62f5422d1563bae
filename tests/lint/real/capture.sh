#!/usr/bin/env bash
# Capture the `tools/list` catalogs of a held-out set (issue 33) into tests/lint/real/: SET=2 (default) the second
# held-out set (second round), SET=3 the third (third round), SET=4, SET=5 and SET=6 the fourth, fifth and sixth, SET=7,
# SET=8 and SET=9 the held-out measuring sticks of the sixth round, SET=10 the eighth round's (npm and PyPI), SET=11 the
# ninth round's final stick (npm and PyPI), SET=12 a second one (one PyPI server), SET=13 the tenth round's (npm and PyPI),
# SET=14 the stick built after held_out_13 was measured (npm and PyPI), SET=15 the one built after held_out_14 was
# measured (npm and PyPI), SET=16 the one built after held_out_15 was measured (npm), SET=17 the one built after
# held_out_16 was captured (npm and PyPI), SET=18 the one built after held_out_17 was captured (npm and PyPI), SET=19
# the one built after held_out_18 was captured (npm and PyPI), SET=20 the one built after held_out_19 was captured (npm
# and PyPI), SET=21 the one built after held_out_20 was captured (npm and PyPI), SET=22 the one built after held_out_21
# was captured (npm and PyPI), SET=23 the one built alongside held_out_22 (npm and PyPI), SET=24 the one built after
# held_out_23 was measured (npm and PyPI), SET=25 the one built alongside held_out_24 (npm and PyPI), SET=26 the one built
# after held_out_25 was captured (PyPI), SET=27 the one built alongside held_out_26 (PyPI and npm), SET=28 the one
# built alongside held_out_29 (PyPI), SET=29 the one built alongside held_out_28 (PyPI and npm), SET=30 the one
# built alongside held_out_29 by a third helper (PyPI), SET=31 the one built alongside held_out_32 (PyPI and npm),
# SET=32 the one built alongside held_out_31 (PyPI), SET=33 the one built alongside held_out_34 (PyPI), SET=34 the one built alongside held_out_33 (PyPI and npm),
# SET=35 the one built alongside held_out_36 (PyPI), SET=36 the one built alongside held_out_35 (npm and PyPI),
# SET=38 the one built alongside held_out_37 (npm and PyPI), SET=39 the one built alongside held_out_40 (PyPI), SET=40 the
# one built alongside held_out_39 (npm and PyPI), SET=41 the one built alongside held_out_42 and held_out_43 (PyPI and npm),
# SET=43 the one built alongside held_out_41 and held_out_42 (npm and PyPI), SET=44 the one built alongside held_out_42 and
# held_out_45 (npm and PyPI), SET=42 the one built alongside held_out_44 and held_out_45 (npm and PyPI), SET=45 the one
# built alongside held_out_42 and held_out_44 (npm and PyPI), SET=46 the one built alongside held_out_47 and held_out_48
# (npm and PyPI), SET=47 the one built alongside held_out_46 and held_out_48 (PyPI), SET=48 the one built alongside
# held_out_46 and held_out_47 (npm and PyPI), SET=49 the one built alongside held_out_50 and held_out_51 (npm and PyPI),
# SET=50 the one built alongside held_out_49 and held_out_51 (npm and PyPI), SET=51 the one built alongside held_out_52,
# held_out_53 and held_out_54 (npm and PyPI),
# SET=52 the one built alongside held_out_51, held_out_53 and held_out_54 (npm and PyPI),
# SET=53 the one built alongside held_out_51, held_out_52 and held_out_54 (npm and PyPI),
# SET=54 the one built alongside held_out_51, held_out_52 and held_out_53 (npm and PyPI),
# SET=55 the one built alongside held_out_56, held_out_57 and held_out_58 (PyPI; its npm candidates left out),
# SET=56 the one built alongside held_out_55, held_out_57 and held_out_58 (npm and PyPI),
# SET=57 the one built alongside held_out_55, held_out_56 and held_out_58 (npm and PyPI),
# SET=58 the one built alongside held_out_55, held_out_56 and held_out_57 (npm and PyPI),
# SET=60 the one built alongside held_out_59 and held_out_61 (PyPI),
# SET=62 the one built alongside held_out_63, held_out_64, held_out_65 and held_out_66 (npm and PyPI),
# SET=66 the one built alongside held_out_62, held_out_63, held_out_64 and held_out_65 (npm and PyPI),
# SET=63 the one built alongside held_out_62, held_out_64, held_out_65 and held_out_66 (PyPI),
# SET=64 the one built alongside held_out_62, held_out_63, held_out_65 and held_out_66 (PyPI),
# SET=67 the one built alongside held_out_63, held_out_64, held_out_65 and held_out_68 (PyPI),
# SET=68 the one built alongside held_out_63, held_out_64, held_out_65 and held_out_67 (npm and PyPI),
# SET=70 the one built alongside held_out_69, held_out_71 and held_out_72 (npm and PyPI),
# SET=71 the one built alongside held_out_69, held_out_70 and held_out_72 (npm and PyPI),
# SET=69 the one built alongside held_out_70, held_out_71 and held_out_72 (npm and PyPI),
# SET=74 the one built alongside held_out_69, held_out_72 and held_out_73 (npm and PyPI),
# SET=73 the one built alongside held_out_69, held_out_72 and held_out_74 (npm and PyPI),
# SET=75 the one built alongside held_out_76, held_out_77 and held_out_78 (npm and PyPI),
# SET=76 the one built alongside held_out_75, held_out_77 and held_out_78 (npm and PyPI),
# SET=77 the one built alongside held_out_75, held_out_76 and held_out_78 (npm and PyPI),
# SET=78 the one built alongside held_out_75, held_out_76 and held_out_77 (npm and PyPI),
# SET=79 the one built alongside held_out_80, held_out_81 and held_out_82 (npm and PyPI),
# SET=80 the one built alongside held_out_79, held_out_81 and held_out_82 (npm and PyPI),
# SET=81 the one built alongside held_out_79, held_out_80 and held_out_82 (PyPI),
# SET=82 the one built alongside held_out_79, held_out_80 and held_out_81 (PyPI; its npm candidates left out),
# SET=85 the one built alongside held_out_83, held_out_84 and held_out_86 (npm and PyPI),
# SET=86 the one built alongside held_out_83, held_out_84 and held_out_85 (npm and PyPI),
# SET=84 the one built alongside held_out_83, held_out_85 and held_out_86 (PyPI; no npm server tried).
# Not run by `make test`: the captured JSON is committed. Installs each server in a throw-away directory
# (npm with --ignore-scripts: no browser or binary download; each PyPI package into its own venv), starts it with dummy
# credentials and saves its catalog with `mcptest tools`. Usage:
#   bash tests/lint/real/capture.sh install   # install the servers into $WORK (default /tmp/lint-capture)
#   bash tests/lint/real/capture.sh capture [NAME...]  # list each one's tools into tests/lint/real/NAME.json
# (the dummy credentials go on the command line through env(1): mcptest does not pass its own environment on)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SET=${SET:-2}
WORK=${WORK:-/tmp/lint-capture$([ "$SET" = 2 ] || echo "$SET")}
# The project's own interpreter by default, named by its path: capture() puts each server's venv first on PATH, where
# a bare `python3` would be that venv's, which has no mcptest (every helper of the twentieth round hit this).
PYTHON=${PYTHON:-$([ -x "$ROOT/.venv/bin/python" ] && echo "$ROOT/.venv/bin/python" || command -v python3)}
MCPTEST=${MCPTEST:-"$PYTHON -m mcptest"}

NPM=(
  "@brave/brave-search-mcp-server@2.1.4"
  "@antv/mcp-server-chart@0.9.10"
  "mongodb-mcp-server@3.0.4"
  "@wonderwhy-er/desktop-commander@0.2.52"
  "figma-developer-mcp@0.13.2"
  "@openbnb/mcp-server-airbnb@0.3.0"
  "@circleci/mcp-server-circleci@0.20.0"
  "@heroku/mcp-server@1.2.8"
  "@kimtaeyoon83/mcp-server-youtube-transcript@0.1.1"
  "@perplexity-ai/mcp-server@1.2.1"
)
PYPI=(
  "mcp-server-qdrant==0.8.1"
  "markitdown-mcp==0.0.1a8"
  "mcp-server-docker==0.3.0"
  "excel-mcp-server==2.2.2"
  "mcp-clickhouse==0.7.0"
)

# name|environment|command (run from $WORK; node_modules/.bin and every venv-*/bin are on PATH)
SERVERS=(
  "brave-search-mcp-server|BRAVE_API_KEY=dummy|brave-search-mcp-server"
  "mcp-server-chart|VIS_REQUEST_SERVER=http://127.0.0.1:1|mcp-server-chart"
  "mongodb-mcp-server|MDB_MCP_CONNECTION_STRING=mongodb://127.0.0.1:1/none|mongodb-mcp-server"
  "desktop-commander|DC_TELEMETRY=false|desktop-commander"
  "figma-developer-mcp|FIGMA_API_KEY=dummy|figma-developer-mcp --stdio"
  "mcp-server-airbnb||mcp-server-airbnb --ignore-robots-txt"
  "mcp-server-circleci|CIRCLECI_TOKEN=dummy|mcp-server-circleci"
  "heroku-mcp-server|HEROKU_API_KEY=dummy|heroku-mcp-server"
  "mcp-server-youtube-transcript||mcp-server-youtube-transcript"
  "perplexity-mcp-server|PERPLEXITY_API_KEY=dummy|perplexity-mcp"
  "mcp-server-qdrant|QDRANT_URL=http://127.0.0.1:1 COLLECTION_NAME=none|mcp-server-qdrant"
  "markitdown-mcp||markitdown-mcp"
  "mcp-server-docker|DOCKER_HOST=tcp://127.0.0.1:1|mcp-server-docker"
  "excel-mcp-server|EXCEL_FILES_PATH=$WORK/excel|excel-mcp-server stdio"
  "mcp-clickhouse|CLICKHOUSE_HOST=127.0.0.1 CLICKHOUSE_PORT=1 CLICKHOUSE_USER=none CLICKHOUSE_PASSWORD=none|mcp-clickhouse"
)

if [ "$SET" = 3 ]; then
  NPM=(
    "@shopify/dev-mcp@1.16.0"
    "@mapbox/mcp-server@0.14.0"
    "@pinecone-database/mcp@0.3.0"
    "@winor30/mcp-server-datadog@1.8.0"
    "airtable-mcp-server@1.14.0"
    "@modelcontextprotocol/server-everart@0.6.2"
    "@modelcontextprotocol/server-aws-kb-retrieval@0.6.2"
    "@hubspot/mcp-server@0.4.0"
    "@kazuph/mcp-taskmanager@1.1.1"
  )
  PYPI=(
    "wikipedia-mcp==2.0.1"
  )
  SERVERS=(
    "shopify-dev-mcp||shopify-dev-mcp"
    "mapbox-mcp-server|MAPBOX_ACCESS_TOKEN=pk.dummy|mcp-server"
    "pinecone-mcp|PINECONE_API_KEY=dummy|pinecone-mcp"
    "mcp-server-datadog|DATADOG_API_KEY=dummy DATADOG_APP_KEY=dummy|mcp-server-datadog"
    "airtable-mcp-server|AIRTABLE_API_KEY=patdummy|airtable-mcp-server"
    "server-everart|EVERART_API_KEY=dummy|mcp-server-everart"
    "server-aws-kb-retrieval|AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1|mcp-server-aws-kb-retrieval"
    "hubspot-mcp-server|PRIVATE_APP_ACCESS_TOKEN=dummy|mcp-hubspot"
    "mcp-taskmanager||mcp-taskmanager"
    "wikipedia-mcp||wikipedia-mcp"
  )
fi

if [ "$SET" = 4 ]; then
  NPM=(
    "@amap/amap-maps-mcp-server@0.0.8"
    "@aashari/mcp-server-atlassian-jira@3.3.0"
    "@azure-devops/mcp@2.10.0"
    "@benborla29/mcp-server-mysql@2.0.9"
    "@baruchiro/paperless-mcp@2.2.1"
  )
  PYPI=()
  SERVERS=(
    "amap-maps-mcp-server|AMAP_MAPS_API_KEY=dummy|mcp-amap"
    "mcp-server-atlassian-jira|ATLASSIAN_SITE_NAME=example ATLASSIAN_USER_EMAIL=a@example.com ATLASSIAN_API_TOKEN=dummy|mcp-atlassian-jira"
    "azure-devops-mcp||mcp-server-azuredevops example"
    "mcp-server-mysql|MYSQL_HOST=127.0.0.1 MYSQL_PORT=1 MYSQL_USER=none MYSQL_PASS=none MYSQL_DB=none|mcp-server-mysql"
    "paperless-mcp||paperless-mcp --baseUrl http://127.0.0.1:1 --token dummy"
  )
fi

if [ "$SET" = 5 ]; then
  NPM=(
    "@elastic/mcp-server-elasticsearch@0.3.1"
    "@browsermcp/mcp@0.1.3"
    "linear-mcp-server@0.1.0"
    "@agentdeskai/browser-tools-mcp@2.0.2"
  )
  PYPI=(
    "mcp-obsidian==0.2.3"
  )
  SERVERS=(
    "mcp-server-elasticsearch|ES_URL=http://127.0.0.1:1 ES_API_KEY=dummy|mcp-server-elasticsearch"
    "browsermcp||mcp-server-browsermcp"
    "linear-mcp-server|LINEAR_API_KEY=dummy|linear-mcp-server"
    "browser-tools-mcp||browser-tools-mcp"
    "mcp-obsidian|OBSIDIAN_API_KEY=dummy|mcp-obsidian"
  )
fi

if [ "$SET" = 6 ]; then
  NPM=()
  PYPI=(
    "mcp-server-duckdb==1.1.0 mcp<2"  # written for the 1.x SDK (Server.list_tools is gone in 2.x)
    "mcp-yahoo-finance==0.2.0"
    "pdf-tools-mcp==0.1.4"
    "cli-mcp-server==0.2.5 mcp<2"
    "mcp-server-motherduck==1.1.0"
    "mcp-scholarly==0.1.0 bibtexparser<2 mcp<2"  # bibtexparser 2.x dropped bibtexparser.bibdatabase
    "awslabs.aws-pricing-mcp-server==1.1.1"
    "pagerduty-mcp==1.1.0"
    "tilt-mcp==0.1.3 mcp<2"
    "opensearch-mcp-server-py==0.12.0"
    "mcp-server-tree-sitter==0.7.0 mcp<2"
  )
  SERVERS=(
    "mcp-server-duckdb||mcp-server-duckdb --db-path $WORK/duck.db"
    "mcp-yahoo-finance||mcp-yahoo-finance"
    "pdf-tools-mcp||pdf-tools-mcp"
    "cli-mcp-server|ALLOWED_DIR=$WORK ALLOWED_COMMANDS=ls,cat ALLOWED_FLAGS=-l|cli-mcp-server"
    "mcp-server-motherduck||mcp-server-motherduck --db-path :memory: --read-write"
    "mcp-scholarly||mcp-scholarly"
    "aws-pricing-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.aws-pricing-mcp-server"
    "pagerduty-mcp|PAGERDUTY_USER_API_KEY=dummy|pagerduty-mcp"
    "tilt-mcp||tilt-mcp"
    "opensearch-mcp-server|OPENSEARCH_URL=http://127.0.0.1:1 OPENSEARCH_USERNAME=none OPENSEARCH_PASSWORD=none|opensearch-mcp-server-py"
    "mcp-server-tree-sitter||mcp-server-tree-sitter"
  )
fi

if [ "$SET" = 7 ]; then  # held_out_7 (issue 33, sixth round): the measuring stick no rule is tuned on
  NPM=(
    "@eslint/mcp@0.3.13"
    "@drawio/mcp@1.6.1"
    "@sentry/mcp-server@0.39.0"
    "@angiejones/mcp-selenium@0.2.3"
    "@h1deya/mcp-server-weather@0.1.3"
    "@geobio/mcp-open-library@0.1.6"
    "@currents/mcp@2.1.1"
    "@gleanwork/local-mcp-server@0.7.6"
    "@infisical/mcp@0.0.24"
    "@dangahagan/weather-mcp@1.23.0"
  )
  PYPI=()
  # started by path: @eslint/mcp and @currents/mcp both install a bin named `mcp`
  SERVERS=(
    "eslint-mcp||node node_modules/@eslint/mcp/src/mcp-cli.js"
    "drawio-mcp||node node_modules/@drawio/mcp/src/index.js"
    "sentry-mcp-server|SENTRY_ACCESS_TOKEN=dummy|node node_modules/@sentry/mcp-server/dist/index.js"
    "mcp-selenium||node node_modules/@angiejones/mcp-selenium/src/lib/server.js"
    "mcp-server-weather||node node_modules/@h1deya/mcp-server-weather/dist/index.js"
    "mcp-open-library||node node_modules/@geobio/mcp-open-library/bin-wrapper.js"
    "currents-mcp|CURRENTS_API_KEY=dummy|node node_modules/@currents/mcp/build/index.js"
    "glean-local-mcp-server|GLEAN_INSTANCE=example GLEAN_API_TOKEN=dummy|node node_modules/@gleanwork/local-mcp-server/build/index.js"
    "infisical-mcp|INFISICAL_UNIVERSAL_AUTH_CLIENT_ID=dummy INFISICAL_UNIVERSAL_AUTH_CLIENT_SECRET=dummy INFISICAL_HOST_URL=http://127.0.0.1:1|node node_modules/@infisical/mcp/dist/index.js"
    "weather-mcp||node node_modules/@dangahagan/weather-mcp/dist/index.js"
  )
fi

if [ "$SET" = 8 ]; then  # held_out_8 (issue 33, sixth round): a second measuring stick, captured after held_out_7
  NPM=(
    "@chatwork/mcp-server@0.0.4"
    "@cyanheads/git-mcp-server@2.15.3"
    "@modelcontextprotocol/server-pdf@2.0.4"
    "@modelcontextprotocol/server-system-monitor@2.0.3"
    "@modelcontextprotocol/server-wiki-explorer@2.0.3"
    "@modelcontextprotocol/server-map@2.0.3"
    "mcp-mermaid@0.4.1"
    "mcp-server-code-runner@0.1.8"
    "@line/line-bot-mcp-server@0.5.0"
    "@mastra/mcp-docs-server@1.2.27"
    "@translated/lara-mcp@1.0.6"
  )
  PYPI=()
  SERVERS=(
    "chatwork-mcp-server|CHATWORK_API_TOKEN=dummy|node node_modules/@chatwork/mcp-server/dist/index.js"
    "git-mcp-server|MCP_LOG_LEVEL=error|node node_modules/@cyanheads/git-mcp-server/dist/index.js"
    "server-pdf||node node_modules/@modelcontextprotocol/server-pdf/dist/index.js --stdio"
    "server-system-monitor||node node_modules/@modelcontextprotocol/server-system-monitor/dist/index.js --stdio"
    "server-wiki-explorer||node node_modules/@modelcontextprotocol/server-wiki-explorer/dist/index.js --stdio"
    "server-map||node node_modules/@modelcontextprotocol/server-map/dist/index.js --stdio"
    "mcp-mermaid||node node_modules/mcp-mermaid/build/index.js"
    "mcp-server-code-runner||node node_modules/mcp-server-code-runner/dist/cli.js"
    "line-bot-mcp-server|CHANNEL_ACCESS_TOKEN=dummy DESTINATION_USER_ID=U0000|node node_modules/@line/line-bot-mcp-server/dist/index.js"
    "mastra-mcp-docs-server||node node_modules/@mastra/mcp-docs-server/dist/stdio.js"
    "lara-mcp|LARA_ACCESS_KEY_ID=dummy LARA_ACCESS_KEY_SECRET=dummy|node node_modules/@translated/lara-mcp/dist/index.js"
  )
fi

if [ "$SET" = 9 ]; then  # held_out_9 (issue 33, sixth round): a third measuring stick, captured after held_out_8
  NPM=(
    "@adenot/mcp-google-search@0.3.1"
    "@mzxrai/mcp-webresearch@0.1.7"
    "@discourse/mcp@0.3.1"
    "@instantdb/mcp@1.0.67"
    "@netlify/mcp@1.15.1"
    "@browserbasehq/mcp-server-browserbase@2.4.3"
    "@codacy/codacy-mcp@0.5.9"
  )
  PYPI=()
  SERVERS=(
    "mcp-google-search|GOOGLE_API_KEY=dummy GOOGLE_SEARCH_ENGINE_ID=dummy|node node_modules/@adenot/mcp-google-search/build/index.js"
    "mcp-webresearch||node node_modules/@mzxrai/mcp-webresearch/dist/index.js"
    "discourse-mcp||node node_modules/@discourse/mcp/dist/index.js --allow_writes"
    "instantdb-mcp|INSTANT_ACCESS_TOKEN=dummy|node node_modules/@instantdb/mcp/dist/index.js --token dummy"
    "netlify-mcp|NETLIFY_PERSONAL_ACCESS_TOKEN=dummy|node node_modules/@netlify/mcp/dist/netlify-mcp.js"
    "browserbase-mcp|BROWSERBASE_API_KEY=dummy BROWSERBASE_PROJECT_ID=dummy GEMINI_API_KEY=dummy|node node_modules/@browserbasehq/mcp-server-browserbase/cli.js"
    "codacy-mcp|CODACY_ACCOUNT_TOKEN=dummy|node node_modules/@codacy/codacy-mcp/dist/index.js"
  )
fi

if [ "$SET" = 10 ]; then  # held_out_10 (issue 33, eighth round): a new measuring stick, npm and PyPI, no rule tuned on it
  NPM=(
    "next-devtools-mcp@0.4.0"
    "@launchdarkly/mcp-server@0.6.2"
    "@google-cloud/cloud-run-mcp@1.10.0"
    "cclsp@0.7.0"
    "@testsprite/testsprite-mcp@0.0.45"
    "@z_ai/mcp-server@0.1.5"
  )
  PYPI=(
    "mysql-mcp-server==0.4.4"
    "lean-lsp-mcp==0.32.0"
    "analytics-mcp==0.8.0"
    "awslabs.cloudwatch-mcp-server==0.3.1"
    "mcp-neo4j-cypher==0.6.0"
    "zotero-mcp==0.3.1"
    "mcp-server-trello==0.5.2"
  )
  SERVERS=(
    "mysql-mcp-server|MYSQL_HOST=127.0.0.1 MYSQL_PORT=1 MYSQL_USER=none MYSQL_PASSWORD=none MYSQL_DATABASE=none|mysql_mcp_server"
    "lean-lsp-mcp|LEAN_PROJECT_PATH=$WORK/lean|lean-lsp-mcp"  # an empty Lean project: the server only checks its two files
    "analytics-mcp|GOOGLE_APPLICATION_CREDENTIALS=/nonexistent GOOGLE_CLOUD_PROJECT=dummy|analytics-mcp"
    "cloudwatch-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.cloudwatch-mcp-server"
    "mcp-neo4j-cypher|NEO4J_URI=bolt://127.0.0.1:1 NEO4J_USERNAME=none NEO4J_PASSWORD=none|mcp-neo4j-cypher"
    "next-devtools-mcp||node node_modules/next-devtools-mcp/dist/index.js"
    "launchdarkly-mcp-server||node node_modules/@launchdarkly/mcp-server/bin/mcp-server.js start --api-key dummy"
    "cloud-run-mcp|GOOGLE_CLOUD_PROJECT=dummy|node node_modules/@google-cloud/cloud-run-mcp/mcp-server.js"  # the project default in its schemas is this dummy
    "cclsp|CCLSP_CONFIG_PATH=$WORK/cclsp.json|node node_modules/cclsp/dist/index.js"
    "testsprite-mcp|API_KEY=dummy|node node_modules/@testsprite/testsprite-mcp/dist/index.js"
    "zai-mcp-server|Z_AI_API_KEY=dummy Z_AI_MODE=ZAI|node node_modules/@z_ai/mcp-server/build/index.js"
    "zotero-mcp|ZOTERO_LOCAL=true|zotero-mcp"
    "mcp-server-trello|TRELLO_API_KEY=dummy TRELLO_TOKEN=dummy|mcp-server-trello"
  )
fi

if [ "$SET" = 11 ]; then  # held_out_11 (issue 33, ninth round): the stick the final rules are measured on, no rule tuned on it
  NPM=(
    "chrome-devtools-mcp@1.11.0"
    "@mobilenext/mobile-mcp@1.0.4"
    "@morphllm/morphmcp@0.8.213"
    "@cocal/google-calendar-mcp@2.6.3"
  )
  PYPI=(
    "todoist-mcp==0.4.0"
    "pymupdf4llm-mcp==1.28.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp)
  )
  SERVERS=(
    "chrome-devtools-mcp||node node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js"  # no browser is started to list
    "mobile-mcp||node node_modules/@mobilenext/mobile-mcp/lib/index.js"
    "morphmcp|MORPH_API_KEY=dummy|node node_modules/@morphllm/morphmcp/dist/index.js"
    "todoist-mcp|TODOIST_API_TOKEN=dummy|todoist-mcp"
    "pymupdf4llm-mcp||pymupdf4llm-mcp stdio"
    "google-calendar-mcp|GOOGLE_OAUTH_CREDENTIALS=$WORK/gcal-oauth.json|node node_modules/@cocal/google-calendar-mcp/build/index.js"  # a dummy OAuth client file; no token: it lists without signing in
  )
fi

if [ "$SET" = 12 ]; then  # held_out_12 (issue 33, ninth round): a second final stick, one vendor server, no rule tuned on it
  NPM=()
  PYPI=(
    "redis-mcp-server==0.5.1"
  )
  SERVERS=(
    "redis-mcp-server||redis-mcp-server --url redis://127.0.0.1:1/0"  # lists its tools without reaching Redis
  )
fi

if [ "$SET" = 13 ]; then  # held_out_13 (issue 33, tenth round): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@shortcut/mcp@0.25.0"
    "@magicuidesign/mcp@2.0.0"
    "@vapi-ai/mcp-server@0.0.11"
    "@tiberriver256/mcp-server-azure-devops@0.1.48"
  )
  PYPI=(
    "blender-mcp==2.0.0 mcp-for-blender==2.2.4 mcp==1.30.0"  # blender-mcp 2.0.0 only installs mcp-for-blender, whose tools these are
    "mcp-server-sentry==2025.1.14 mcp==1.30.0"  # written for the 1.x SDK (it imports httpx, which mcp 2.x no longer brings)
    "awslabs.dynamodb-mcp-server==2.1.8 mcp==1.26.0 fastmcp==3.4.11"  # the SDKs that generate its schemas, pinned
  )
  SERVERS=(
    "shortcut-mcp|SHORTCUT_API_TOKEN=dummy|node node_modules/@shortcut/mcp/dist/index.js"
    "magicui-mcp||node node_modules/@magicuidesign/mcp/dist/server.js"
    "vapi-mcp-server|VAPI_TOKEN=dummy|node node_modules/@vapi-ai/mcp-server/dist/index.js"
    "azure-devops-mcp|AZURE_DEVOPS_ORG_URL=https://dev.azure.com/dummy AZURE_DEVOPS_AUTH_METHOD=pat AZURE_DEVOPS_PAT=dummy|node node_modules/@tiberriver256/mcp-server-azure-devops/dist/index.js"
    "blender-mcp||blender-mcp"  # lists its tools without a running Blender
    "mcp-server-sentry||mcp-server-sentry --auth-token dummy"
    "dynamodb-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.dynamodb-mcp-server"
  )
fi

if [ "$SET" = 14 ]; then  # held_out_14 (issue 33, after held_out_13): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "argocd-mcp@0.9.0"
    "flightradar-mcp-server@0.1.2"
    "reddit-mcp-buddy@1.1.14"
    "@roychri/mcp-server-asana@1.8.0"
    "@skanda-yutori/mcp-send-email@1.0.0"
    "@remotion/mcp@4.0.527"
  )
  PYPI=(
    "astro-airflow-mcp==0.9.1 fastmcp==3.4.11 mcp==1.30.0"  # the SDKs that generate its schemas, pinned
    "office-powerpoint-mcp-server==2.0.7 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp)
    "awslabs.memcached-mcp-server==1.1.1 mcp==2.3.0"  # written for the 2.x SDK (mcp.server.mcpserver)
  )
  SERVERS=(
    "argocd-mcp|ARGOCD_BASE_URL=http://127.0.0.1:1 ARGOCD_API_TOKEN=dummy|node node_modules/argocd-mcp/dist/index.js stdio"
    "flightradar-mcp-server|FR24_API_KEY=dummy|node node_modules/flightradar-mcp-server/build/index.js"
    "reddit-mcp-buddy||node node_modules/reddit-mcp-buddy/dist/cli.js"
    "asana-mcp-server|ASANA_ACCESS_TOKEN=dummy|node node_modules/@roychri/mcp-server-asana/dist/index.js"
    "mcp-send-email|RESEND_API_KEY=re_dummy|node node_modules/@skanda-yutori/mcp-send-email/build/index.js"
    "remotion-mcp||node node_modules/@remotion/mcp/dist/esm/index.mjs"
    "astro-airflow-mcp|AIRFLOW_API_URL=http://127.0.0.1:1|astro-airflow-mcp"
    "powerpoint-mcp-server||ppt_mcp_server"
    "memcached-mcp-server|MEMCACHED_HOST=127.0.0.1 MEMCACHED_PORT=1|awslabs.memcached-mcp-server"
  )
fi

if [ "$SET" = 15 ]; then  # held_out_15 (issue 33, after held_out_14): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "xcodebuildmcp@2.7.0"
    "@browserstack/mcp-server@1.4.2"
    "@mui/mcp@0.1.6"
    "mcp-deepwiki@0.0.10"
  )
  PYPI=(
    "awslabs.aws-iac-mcp-server==1.0.26 fastmcp==3.4.11 mcp==1.30.0"  # the SDKs that generate its schemas, pinned
    "chroma-mcp==0.2.6"  # pins mcp[cli]==1.6.0, which fails on pydantic 2.14 and predates the client's protocol:
  )
  PIP_AFTER=(
    "venv-chroma-mcp|mcp==1.30.0"  # so mcp 1.30.0 replaces it once it is installed (pip refuses the pair in one install)
  )
  SERVERS=(
    "xcodebuildmcp||node node_modules/xcodebuildmcp/build/cli.js mcp"  # lists its tools without Xcode
    "browserstack-mcp-server|BROWSERSTACK_USERNAME=dummy BROWSERSTACK_ACCESS_KEY=dummy|node node_modules/@browserstack/mcp-server/dist/index.js"
    "mui-mcp||node node_modules/@mui/mcp/stdio.js"
    "mcp-deepwiki||node node_modules/mcp-deepwiki/bin/cli.mjs"
    "aws-iac-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.aws-iac-mcp-server"
    "chroma-mcp||chroma-mcp --client-type ephemeral"  # an in-memory Chroma: no server to reach
  )
fi

if [ "$SET" = 16 ]; then  # held_out_16 (issue 33, after held_out_15): a new stick, npm, no rule tuned on it
  NPM=(
    "@cyanheads/pubmed-mcp-server@2.7.4"
    "@akutishevsky/lunchmoney-mcp@3.0.0"
    "hevy-mcp@6.1.13"
    "@openzeppelin/contracts-mcp@0.7.1"
    "@coding-solo/godot-mcp@0.1.1"
    "@transloadit/mcp-server@0.3.31"
    "zod@4.6.7"  # what pubmed, contracts and transloadit resolve when each is installed alone: with lunchmoney's zod 3
  )              # hoisted instead, the shared SDK drops their argument descriptions and bounds
  PYPI=()
  SERVERS=(
    "pubmed-mcp-server||node node_modules/@cyanheads/pubmed-mcp-server/dist/index.js"  # lists its tools without reaching NCBI
    "lunchmoney-mcp|LUNCHMONEY_API_TOKEN=dummy|node node_modules/@akutishevsky/lunchmoney-mcp/build/index.js"
    "hevy-mcp|HEVY_API_KEY=dummy|node node_modules/hevy-mcp/dist/cli.mjs"
    "contracts-mcp||node node_modules/@openzeppelin/contracts-mcp/dist/cli.js"
    "godot-mcp||node node_modules/@coding-solo/godot-mcp/build/index.js"  # lists its tools without a Godot binary
    "transloadit-mcp-server|TRANSLOADIT_KEY=dummy TRANSLOADIT_SECRET=dummy|node node_modules/@transloadit/mcp-server/dist/cli.js"
  )
fi

if [ "$SET" = 17 ]; then  # held_out_17 (issue 33, after held_out_16): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "replicate-mcp@0.9.0"
    "@postman/postman-mcp-server@2.13.0"
    "howtocook-mcp@0.2.2"
    "mcp-searxng@2.4.0"
    "dataforseo-mcp-server@3.1.1"
    "zod@4.6.7"  # what dataforseo resolves when installed alone: with the zod 3 of replicate, postman and howtocook
  )              # hoisted instead, the shared SDK drops its argument descriptions (those three give the same catalogs)
  PYPI=(
    "awslabs.redshift-mcp-server==0.1.2 mcp==2.3.0"  # the SDK that generates its schemas, pinned
    "awslabs.aws-location-mcp-server==2.1.1 mcp==2.3.0"
  )
  SERVERS=(
    "replicate-mcp|REPLICATE_API_TOKEN=r8_dummy|node node_modules/replicate-mcp/index.js"
    "postman-mcp-server|POSTMAN_API_KEY=PMAK-dummy|node node_modules/@postman/postman-mcp-server/dist/src/index.js"
    "howtocook-mcp||node node_modules/howtocook-mcp/build/index.js"
    "mcp-searxng|SEARXNG_URL=http://127.0.0.1:1|node node_modules/mcp-searxng/dist/cli.js"
    "dataforseo-mcp-server|DATAFORSEO_USERNAME=dummy DATAFORSEO_PASSWORD=dummy|node node_modules/dataforseo-mcp-server/dist/index.js"
    "redshift-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.redshift-mcp-server"
    "aws-location-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.aws-location-mcp-server"
  )
fi

if [ "$SET" = 18 ]; then  # held_out_18 (issue 33, after held_out_17): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@modelcontextprotocol/server-sheet-music@2.0.3"
    "@modelcontextprotocol/server-shadertoy@2.0.3"
    "@cloudinary/asset-management-mcp@0.11.0"
  )
  PYPI=(
    "elevenlabs-mcp==0.12.2 mcp==1.30.0"  # the SDK that generates its schemas, pinned
    "office-word-mcp-server==1.1.11 fastmcp==4.2.3 mcp==2.3.0"
  )
  SERVERS=(
    "server-sheet-music||node node_modules/@modelcontextprotocol/server-sheet-music/dist/index.js --stdio"
    "server-shadertoy||node node_modules/@modelcontextprotocol/server-shadertoy/dist/index.js --stdio"
    "cloudinary-asset-management-mcp|CLOUDINARY_URL=cloudinary://111:dummy@dummy|node node_modules/@cloudinary/asset-management-mcp/bin/mcp-server.js start"
    "elevenlabs-mcp|ELEVENLABS_API_KEY=dummy|elevenlabs-mcp"
    "office-word-mcp-server||word_mcp_server"
  )
fi

if [ "$SET" = 19 ]; then  # held_out_19 (issue 33, after held_out_18): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@modelcontextprotocol/server-threejs@2.0.3"
    "@modelcontextprotocol/server-budget-allocator@2.0.3"
    "@pandacss/mcp@1.12.1"
    "@supabase/mcp-server-supabase@0.13.0"
  )
  PYPI=(
    "awslabs.billing-cost-management-mcp-server==0.0.42 fastmcp==4.2.3 mcp==2.3.0"  # the SDK that generates its schemas, pinned
    "adif-mcp==2.1.0 fastmcp==4.2.3 mcp==2.3.0"
  )
  SERVERS=(
    "server-threejs||node node_modules/@modelcontextprotocol/server-threejs/dist/index.js --stdio"
    "server-budget-allocator||node node_modules/@modelcontextprotocol/server-budget-allocator/dist/index.js --stdio"
    "pandacss-mcp||node node_modules/@pandacss/mcp/bin.js"  # reads panda.config.mjs (an empty one) from $WORK
    # every feature but docs, whose search_docs tool fetches its schema from Supabase's content API to list
    "supabase-mcp-server|SUPABASE_ACCESS_TOKEN=sbp_dummy|node node_modules/@supabase/mcp-server-supabase/dist/cli.js --features=account,database,debugging,development,functions,branching,storage"
    "billing-cost-management-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.billing-cost-management-mcp-server"
    "adif-mcp||adif-mcp"
  )
fi

if [ "$SET" = 20 ]; then  # held_out_20 (issue 33, after held_out_19): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@modelcontextprotocol/server-scenario-modeler@2.0.3"
    "nx-mcp@0.25.0"
    "robloxstudio-mcp@2.6.0"
  )
  PYPI=(
    "minimax-coding-plan-mcp==0.0.5 mcp==2.3.0"  # the SDK that generates its schemas, pinned
    "mcpforunityserver==10.3.0 fastmcp==3.4.11 mcp==1.30.0"
  )
  SERVERS=(
    "server-scenario-modeler||node node_modules/@modelcontextprotocol/server-scenario-modeler/dist/index.js --stdio"
    "nx-mcp||node node_modules/nx-mcp/main.js"  # no Nx workspace: it lists its docs tool only
    "robloxstudio-mcp||node node_modules/robloxstudio-mcp/dist/index.js"  # lists its tools without Roblox Studio
    "minimax-coding-plan-mcp|MINIMAX_API_KEY=dummy MINIMAX_API_HOST=https://api.minimax.io|minimax-coding-plan-mcp"
    "mcp-for-unity||mcp-for-unity --transport stdio"  # lists its tools without a Unity Editor
  )
fi

if [ "$SET" = 21 ]; then  # held_out_21 (issue 33, after held_out_20): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "ios-simulator-mcp@2.1.0"
    "@google-cloud/observability-mcp@0.2.3"
    "@google-cloud/gcloud-mcp@0.5.3"
    "fetcher-mcp@0.3.9"
    "@sylphx/pdf-reader-mcp@2.4.0"
    "backlog-mcp-server@0.20.4"
  )
  PYPI=(
    "awslabs.eks-mcp-server==0.2.1 mcp==2.3.0"  # the SDK that generates its schemas, pinned
    "awslabs.bedrock-kb-retrieval-mcp-server==1.1.2 mcp==2.3.0"
    "jcodemunch-mcp==1.108.399 mcp==1.30.0"
  )
  SERVERS=(
    "ios-simulator-mcp||node node_modules/ios-simulator-mcp/build/index.js"  # lists its tools without Xcode or a simulator
    "observability-mcp||node node_modules/@google-cloud/observability-mcp/dist/bundle.js"  # lists its tools without Google credentials
    "gcloud-mcp||node node_modules/@google-cloud/gcloud-mcp/dist/bundle.js"  # lists its tool without a gcloud binary
    "fetcher-mcp||node node_modules/fetcher-mcp/build/index.js"  # no browser is started to list
    "pdf-reader-mcp||node node_modules/@sylphx/pdf-reader-mcp/dist/index.js"
    "backlog-mcp-server|BACKLOG_DOMAIN=example.backlog.com BACKLOG_API_KEY=dummy|node node_modules/backlog-mcp-server/build/index.js"
    "eks-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.eks-mcp-server"
    "bedrock-kb-retrieval-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.bedrock-kb-retrieval-mcp-server"  # lists its tools without reaching AWS
    "jcodemunch-mcp||jcodemunch-mcp"
  )
fi

if [ "$SET" = 22 ]; then  # held_out_22 (issue 33, after held_out_21): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@modelcontextprotocol/server-gdrive@2025.1.14"
    "@modelcontextprotocol/server-transcript@2.0.3"
    "@modelcontextprotocol/server-cohort-heatmap@2.0.3"
    "@gongrzhe/server-gmail-autoauth-mcp@1.1.11"
  )
  PYPI=(
    "mcp-grafana==2.1.1"  # Grafana's server, shipped as a binary in a wheel
    "code-review-graph==2.3.9 fastmcp==3.4.11 mcp==1.30.0"  # the SDKs that generate its schemas, pinned
  )
  SERVERS=(
    "server-gdrive|GDRIVE_CREDENTIALS_PATH=$WORK/dummy-token.json|node node_modules/@modelcontextprotocol/server-gdrive/dist/index.js"
    "server-transcript||node node_modules/@modelcontextprotocol/server-transcript/dist/index.js --stdio"
    "server-cohort-heatmap||node node_modules/@modelcontextprotocol/server-cohort-heatmap/dist/index.js --stdio"
    "server-gmail-autoauth-mcp|GMAIL_OAUTH_PATH=$WORK/gcal-oauth.json GMAIL_CREDENTIALS_PATH=$WORK/dummy-token.json|node node_modules/@gongrzhe/server-gmail-autoauth-mcp/dist/index.js"
    "mcp-grafana|GRAFANA_URL=http://127.0.0.1:1 GRAFANA_SERVICE_ACCOUNT_TOKEN=dummy|mcp-grafana"  # lists its tools without reaching Grafana
    "code-review-graph||code-review-graph serve"  # lists its tools without a built graph
  )
fi

if [ "$SET" = 23 ]; then  # held_out_23 (issue 33, built alongside held_out_22): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@brightdata/mcp@2.11.3"
    "@larksuiteoapi/lark-mcp@0.5.1"
    "agentation-mcp@1.3.2"
    "n8n-mcp@2.87.0"
    "zod@4.6.7"  # what lark-mcp resolves when installed alone (with the SDK below): with brightdata's SDK 1.21.2
    "@modelcontextprotocol/sdk@1.32.2"  # and zod 3 hoisted instead, lark's schemas lose their properties; the
  )              # four catalogs match lone installs (each package in its own directory) with these two pins
  PYPI=(
    "zammad-mcp==0.1.1 mcp==2.3.0"  # the SDK that generates its schemas, pinned
    "zendesk-mcp==0.1.6 mcp==2.3.0"
  )
  SERVERS=(
    "brightdata-mcp|API_TOKEN=dummy|node node_modules/@brightdata/mcp/server.js"  # its default (rapid) tool set
    "lark-mcp||node node_modules/@larksuiteoapi/lark-mcp/dist/cli.js mcp -a dummy -s dummy"  # its default preset
    "agentation-mcp||node node_modules/agentation-mcp/dist/cli.js server"
    "n8n-mcp|MCP_MODE=stdio N8N_API_URL=http://127.0.0.1:1 N8N_API_KEY=dummy|node node_modules/n8n-mcp/dist/mcp/stdio-wrapper.js"  # a dummy instance adds the management tools
    "zammad-mcp|ZAMMAD_URL=http://127.0.0.1:1 ZAMMAD_TOKEN=dummy|zammad-mcp"
    "zendesk-mcp|ZENDESK_SUBDOMAIN=example ZENDESK_EMAIL=a@example.com ZENDESK_API_TOKEN=dummy|zendesk-mcp"
  )
fi

if [ "$SET" = 24 ]; then  # held_out_24 (issue 33, after held_out_23 was measured): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@cognitionai/metabase-mcp-server@2.2.0"
    "@masonator/coolify-mcp@3.5.0"
    "zod@3.25.76"  # what metabase's fastmcp resolves when installed alone: with coolify's zod 4 hoisted instead, its
  )                # schemas change; both catalogs match lone installs (each package in its own directory) with this pin
  PYPI=(
    "ac-mcp-server==0.12.0 fastmcp==2.12.5 mcp==1.16.0 pydantic==2.11.10"  # it needs fastmcp 2 (fastmcp 4 drops log_level)
    "mfa-servicenow-mcp==1.25.4 mcp==2.3.0"  # the SDK that generates its schemas, pinned
  )
  SERVERS=(
    "ac-mcp-server|AC_API_URL=http://127.0.0.1:1 AC_API_TOKEN=dummy|ac-mcp-server"
    "mfa-servicenow-mcp|SERVICENOW_INSTANCE_URL=https://example.service-now.com SERVICENOW_USERNAME=dummy SERVICENOW_PASSWORD=dummy SERVICENOW_AUTH_TYPE=basic|servicenow-mcp"  # its default tool package
    "metabase-mcp-server|METABASE_URL=http://127.0.0.1:1 METABASE_API_KEY=dummy|metabase-mcp-server"
    "coolify-mcp|COOLIFY_BASE_URL=http://127.0.0.1:1 COOLIFY_ACCESS_TOKEN=dummy|coolify-mcp"
  )
fi
if [ "$SET" = 25 ]; then  # held_out_25 (issue 33, built alongside held_out_24): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@auth0/auth0-mcp-server@0.1.0-beta.19"
  )
  PYPI=(
    "mcp-server-odoo==0.9.0 mcp==2.3.0"  # the SDK that generates its schemas, pinned
    "mcp-alchemy==2026.10.15.202659 mcp==2.3.0"
    "mcp-neo4j-data-modeling==0.8.2 fastmcp==4.2.3 mcp==2.3.0"
    "mcp-google-sheets==0.6.3 mcp==1.30.0"  # written for the 1.x SDK (imports mcp.server.fastmcp)
    "mcp-pandoc==0.11.1 mcp==2.3.0"
  )
  SERVERS=(
    "auth0-mcp-server|AUTH0_TOKEN=dummy AUTH0_DOMAIN=example.auth0.com AUTH0_MCP_ANALYTICS=false|auth0-mcp run"
    "mcp-server-odoo|ODOO_URL=http://127.0.0.1:1 ODOO_API_KEY=dummy ODOO_DB=none|mcp-server-odoo"
    "mcp-alchemy|DB_URL=sqlite:///$WORK/empty.db|mcp-alchemy"  # an empty SQLite file
    "mcp-neo4j-data-modeling||mcp-neo4j-data-modeling"
    "mcp-google-sheets|TOKEN_PATH=$WORK/gsheets-token.json SERVICE_ACCOUNT_PATH=/nonexistent|mcp-google-sheets"  # a dummy unexpired OAuth token
    "mcp-pandoc||mcp-pandoc"
  )
fi
if [ "$SET" = 26 ]; then  # held_out_26 (issue 33, after held_out_25 was captured): a new stick, PyPI, no rule tuned on it
  NPM=()
  PYPI=(
    "mcp-jenkins==3.6.0 fastmcp==4.2.3 mcp==2.3.0"  # the SDK that generates its schemas, pinned
    "mcp-proxmox==1.2.3 mcp==1.30.0"  # written for the 1.x SDK (imports mcp.server.fastmcp)
    "prefect-mcp==0.0.1b13 prefect==3.9.1 fastmcp==4.2.3 mcp==2.3.0"  # Prefect's own server
    "mcp-server-rabbitmq==2.2.0 fastmcp==2.9.2 mcp==1.9.4 pydantic==2.11.7"  # fastmcp 4 lacks the BearerAuthProvider it imports
  )
  SERVERS=(
    "mcp-jenkins||mcp-jenkins --jenkins-url http://127.0.0.1:1 --jenkins-username dummy --jenkins-password dummy"
    "mcp-proxmox|PROXMOX_HOST=127.0.0.1 PROXMOX_USER=root@pam PROXMOX_TOKEN_NAME=dummy PROXMOX_TOKEN_VALUE=dummy|mcp-proxmox"
    "prefect-mcp|PREFECT_API_URL=http://127.0.0.1:1/api|prefect-mcp-server"
    "mcp-server-rabbitmq||mcp-server-rabbitmq --rabbitmq-host 127.0.0.1 --port 1 --username dummy --password dummy"
  )
fi

if [ "$SET" = 27 ]; then  # held_out_27 (issue 33, built alongside held_out_26): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@kazuph/mcp-fetch@1.6.3"
  )
  PYPI=(
    "awslabs.timestream-for-influxdb-mcp-server==0.1.2 mcp==2.3.0"  # the SDK that generates its schemas, pinned
    "awslabs.cloudtrail-mcp-server==0.1.1 mcp==2.3.0"
    "notebooklm-mcp-cli==0.15.8 fastmcp==4.2.3 mcp==2.3.0"
  )
  SERVERS=(
    "mcp-fetch||mcp-fetch"
    "timestream-for-influxdb-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.timestream-for-influxdb-mcp-server"
    "cloudtrail-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.cloudtrail-mcp-server"
    "notebooklm-mcp-cli|NOTEBOOKLM_COOKIES=dummy|notebooklm-mcp"  # a dummy cookie header; it lists its tools offline
  )
fi

if [ "$SET" = 28 ]; then  # held_out_28 (issue 33, built alongside held_out_29): a new stick, PyPI, no rule tuned on it
  NPM=()
  PYPI=(
    "anam-mcp==0.1.13 mcp==1.30.0"  # Anam's own server; imports mcp.server.fastmcp (the 1.x SDK)
    "adguard-home-mcp==0.2.0 mcp==1.30.0"  # imports mcp.server.fastmcp (the 1.x SDK)
    "abs-mcp==0.13.15 fastmcp==3.4.11"  # asks for fastmcp<4
    "cellosaurus-mcp==0.0.2 fastmcp==2.14.7"  # asks for fastmcp<3
    "web-forager==4.0.0 fastmcp==4.2.3 mcp==2.3.0 lxml_html_clean==0.4.6"  # the SDK pinned; trafilatura needs lxml_html_clean with lxml 6
    "cadence-mcp==0.1.0 mcp==2.3.0"  # Cadence's own server
  )
  SERVERS=(
    "anam-mcp|ANAM_API_KEY=dummy ANAM_API_URL=http://127.0.0.1:1|anam-mcp"
    "adguard-home-mcp|ADGUARD_HOME_URL=http://127.0.0.1:1 ADGUARD_HOME_USERNAME=dummy ADGUARD_HOME_PASSWORD=dummy|adguard-home-mcp"
    "abs-mcp||abs-mcp"
    "cellosaurus-mcp||cellosaurus_mcp"
    "web-forager||web-forager serve"
    "cadence-mcp|CADENCE_API_KEY=dummy CADENCE_BASE_URL=http://127.0.0.1:1|cadence-mcp"
  )
fi

if [ "$SET" = 29 ]; then  # held_out_29 (issue 33, built alongside held_out_28): a new stick, PyPI and npm, no rule tuned on it
  NPM=(
    "@microsoft/clarity-mcp-server@2.0.1"  # installed alone: no other npm package shares its node_modules (zod 3.25.76)
  )
  PYPI=(
    "anki-mcp-server==0.2.0 mcp==2.3.0"  # the SDK that generates its schemas, pinned
    "mlflow-mcp==0.4.1 mcp==1.30.0"
    "sonarqube-mcp-server==1.0.0 mcp==1.30.0 pydantic==2.11.3"
    "chess-mcp-server==0.1.17 mcp==1.30.0"
    "awslabs.aws-support-mcp-server==0.1.23 fastmcp==4.2.3 mcp==2.3.0"
  )
  SERVERS=(
    "clarity-mcp-server||clarity-mcp-server --clarity_api_token=dummy"
    "anki-mcp-server|ANKI_CONNECT_URL=http://127.0.0.1:1|anki-mcp-server"
    "mlflow-mcp|MLFLOW_TRACKING_URI=http://127.0.0.1:1|mlflow-mcp"
    "sonarqube-mcp-server|SONARQUBE_URL=http://127.0.0.1:1 SONARQUBE_USERNAME=dummy SONARQUBE_PASSWORD=dummy|sonarqube-mcp-server"
    "chess-mcp-server||chess-mcp-server"
    "aws-support-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.aws-support-mcp-server"
  )
fi

if [ "$SET" = 30 ]; then  # held_out_30 (issue 33, built alongside held_out_29): a new stick, PyPI, no rule tuned on it
  NPM=()
  PYPI=(
    "awslabs.iam-mcp-server==1.1.2 mcp==2.3.0"  # the SDK that generates its schemas, pinned
    "awslabs.amazon-sns-sqs-mcp-server==2.1.1 mcp==2.3.0"
    "sec-edgar-mcp==1.1.0 mcp==1.30.0"  # asks for mcp<2
    "pubchem-mcp-server==0.1.7 mcp==1.30.0"  # imports mcp.server.fastmcp (the 1.x SDK)
  )
  SERVERS=(
    "iam-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.iam-mcp-server"
    "amazon-sns-sqs-mcp-server|AWS_CONFIG_FILE=$WORK/aws-config AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.amazon-sns-sqs-mcp-server"
    "sec-edgar-mcp|SEC_EDGAR_USER_AGENT=dummy@example.com|sec-edgar-mcp"
    "pubchem-mcp-server||pubchem_mcp_server"
  )
fi

if [ "$SET" = 31 ]; then  # held_out_31 (issue 33, built alongside held_out_32): a new stick, PyPI and npm, no rule tuned on it
  NPM=(
    "@djankies/vitest-mcp@0.5.1"  # installed alone: no other npm package shares its node_modules
  )
  PYPI=(
    "awslabs.finch-mcp-server==0.2.0 mcp==2.3.0"  # the SDK that generates its schemas, pinned
    "mcp-wireshark==0.5.0 mcp==1.30.0"  # uses Server.list_tools (the 1.x SDK)
    "atengk-mcp-server-kafka==1.3.1 mcp==2.3.0"  # imports mcp.server.mcpserver (the 2.x SDK)
    "nextcloud-talk-mcp==1.0.2 fastmcp==3.4.11"  # asks for fastmcp<4
    "cpanel-mail-mcp==0.7.0 mcp==1.30.0"  # imports mcp.server.fastmcp (the 1.x SDK)
  )
  SERVERS=(
    "vitest-mcp||vitest-mcp"
    "finch-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.finch-mcp-server"
    "mcp-wireshark||mcp-wireshark"
    "mcp-server-kafka|KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:1|mcp-server-kafka"
    "nextcloud-talk-mcp|NC_URL=http://127.0.0.1:1 NC_USER=dummy NC_APP_PASSWORD=dummy|nextcloud-talk-mcp"
    "cpanel-mail-mcp|CPANEL_USER=dummy@example.com CPANEL_PASS=dummy CPANEL_IMAP_HOST=127.0.0.1 CPANEL_SMTP_HOST=127.0.0.1 CPANEL_IMAP_PORT=1 CPANEL_SMTP_PORT=1|cpanel-mail-mcp"
  )
fi

if [ "$SET" = 32 ]; then  # held_out_32 (issue 33, built alongside held_out_31): a new stick, PyPI, no rule tuned on it
  NPM=()
  PYPI=(
    "meilisearch-mcp==0.7.0 mcp==2.3.0"  # Meilisearch's own server; the SDK that generates its schemas, pinned
    "e2b-mcp-server==0.1.1 mcp==1.30.0"  # E2B's own server (no console script: started through its main())
    "langfuse-mcp==0.14.0 mcp==2.3.0"
    "awslabs.s3-tables-mcp-server==0.1.1 mcp==2.0.0"  # asks for mcp 2.0
    "couchbase-mcp-server==1.0.1.post1 fastmcp==3.4.11 mcp==1.30.0"  # Couchbase's own server
    "awslabs.aurora-dsql-mcp-server==1.1.4 mcp==2.3.0"
    "lancedb-mcp==0.1.3 mcp==1.30.0"  # imports mcp.server.fastmcp (the 1.x SDK)
  )
  SERVERS=(
    "meilisearch-mcp|MEILI_HTTP_ADDR=http://127.0.0.1:1 MEILI_MASTER_KEY=dummy|meilisearch-mcp"
    "e2b-mcp-server|E2B_API_KEY=dummy|venv-e2b-mcp-server/bin/python -c 'import e2b_mcp_server; e2b_mcp_server.main()'"
    "langfuse-mcp|LANGFUSE_PUBLIC_KEY=dummy LANGFUSE_SECRET_KEY=dummy LANGFUSE_HOST=http://127.0.0.1:1|langfuse-mcp"
    "s3-tables-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.s3-tables-mcp-server"
    "couchbase-mcp-server|CB_CONNECTION_STRING=couchbase://127.0.0.1:1 CB_USERNAME=dummy CB_PASSWORD=dummy|couchbase-mcp-server"
    "aurora-dsql-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.aurora-dsql-mcp-server --cluster_endpoint dummy.dsql.us-east-1.on.aws --database_user admin --region us-east-1"
    "lancedb-mcp|LANCEDB_URI=$WORK/lance EMBED_API_BASE=http://127.0.0.1:1/v1|lancedb-mcp"
  )
fi

if [ "$SET" = 33 ]; then  # held_out_33 (issue 33, built alongside held_out_34): a new stick, PyPI, no rule tuned on it
  NPM=()
  PYPI=(
    "aemet-mcp==0.3.2 mcp==1.30.0"  # imports mcp.server.fastmcp (the 1.x SDK)
    "aha-mcp==1.4.4 mcp==1.30.0"
    "airbyte-connector-builder-mcp==0.7.2 fastmcp==2.14.7 mcp==1.30.0"  # Airbyte's own server; the SDKs that generate its schemas, pinned
    "aemo-mcp==0.4.20 fastmcp==3.4.11 mcp==1.30.0"
  )
  SERVERS=(
    "aemet-mcp|AEMET_API_KEY=dummy|aemet_mcp"
    "aha-mcp|AHA_DOMAIN=dummy AHA_API_TOKEN=dummy|aha-mcp"
    "airbyte-connector-builder-mcp||airbyte-connector-builder-mcp"
    "aemo-mcp||aemo-mcp"
  )
fi

if [ "$SET" = 34 ]; then  # held_out_34 (issue 33, built alongside held_out_33): a new stick, PyPI and npm, no rule tuned on it
  NPM=(
    "@opentofu/opentofu-mcp-server@0.1.5"  # OpenTofu's own server; it and variflight share one zod (3.25.76) and one SDK
    "@variflight-ai/variflight-mcp@1.0.3"
  )
  PYPI=(
    "sarvam-mcp==0.2.12 fastmcp==4.2.3 mcp==2.3.0"  # Sarvam AI's own server; the SDK that generates its schemas, pinned
    "mcp-server-abuseipdb==0.1.1 mcp==1.30.0"  # AbuseIPDB's own server (asks for mcp<2)
    "tricount-mcp==0.1.1 mcp==2.2.0"  # pins mcp 2.2.0
    "fakturownia-mcp==0.3.5 mcp==1.30.0"  # asks for mcp<2
    "jabref-mcp==0.2.0 fastmcp==2.14.7 mcp==1.30.0"  # asks for fastmcp<3
    "shelly-mcp==0.1.3 fastmcp==3.4.11 mcp==1.30.0"  # asks for fastmcp<4
  )
  SERVERS=(
    "opentofu-mcp-server||opentofu-mcp-server"
    "variflight-mcp|VARIFLIGHT_API_KEY=dummy|variflight-mcp"
    "sarvam-mcp|SARVAM_API_KEY=dummy|sarvam-mcp"
    "mcp-server-abuseipdb|ABUSEIPDB_API_KEY=dummy|mcp-server-abuseipdb"
    "tricount-mcp|TRICOUNT_EMAIL=dummy@example.com TRICOUNT_PASSWORD=dummy|tricount-mcp"
    "fakturownia-mcp|FAKTUROWNIA_API_TOKEN=dummy FAKTUROWNIA_DOMAIN=dummy|fakturownia-mcp"
    "jabref-mcp||jabref-mcp"
    "shelly-mcp||shelly-mcp"  # no device configured, no cloud key: lists its tools all the same
  )
fi

if [ "$SET" = 35 ]; then  # held_out_35 (issue 33, built alongside held_out_36): a new stick, PyPI, no rule tuned on it
  NPM=()
  PYPI=(
    "awslabs.aws-iot-sitewise-mcp-server==11.0.23 fastmcp==3.4.11 mcp==1.30.0"  # AWS Labs' own server; the SDKs that generate its schemas, pinned
    "kibana-mcp==0.2.2 mcp==1.30.0"  # asks for mcp<2
    "mcp-server-digitalocean==0.1.1 mcp==1.30.0"  # written for the 1.x SDK (Server.list_tools is gone in 2.x)
    "umami-mcp-server==0.3.1 mcp==2.3.0"
    "mcp-beaker==0.7.1 fastmcp==3.4.11 mcp==1.30.0"  # asks for fastmcp<4
    "xraylarch-mcp==0.4.0 mcp==2.3.0"  # asks for mcp>=2,<3
  )
  SERVERS=(
    "aws-iot-sitewise-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.aws-iot-sitewise-mcp-server"
    "kibana-mcp|KIBANA_URL=http://127.0.0.1:1 ELASTICSEARCH_URL=http://127.0.0.1:1 KIBANA_API_KEY=dummy|kibana-mcp"
    "mcp-server-digitalocean|DIGITALOCEAN_TOKEN=dummy|mcp-server-digitalocean"
    "umami-mcp-server|UMAMI_API_BASE=http://127.0.0.1:1/api UMAMI_USERNAME=dummy UMAMI_PASSWORD=dummy|umami-mcp-server"
    "mcp-beaker|BEAKER_URL=http://127.0.0.1:1 BEAKER_USERNAME=dummy BEAKER_PASSWORD=dummy BEAKER_AUTH_METHOD=password|mcp-beaker"
    "xraylarch-mcp||xraylarch-mcp"
  )
fi

if [ "$SET" = 36 ]; then  # held_out_36 (issue 33, built alongside held_out_35): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@kimsungwhee/apple-docs-mcp@1.0.26"  # asks for zod 4 (the 4.6.7 below); cds and tauri keep their own zod 3 nested
    "@coinbase/cds-mcp-server@9.28.0"  # Coinbase's own server (its design system)
    "@hypothesi/tauri-mcp-server@0.13.0"
    "@makeplane/plane-mcp-server@0.1.5"  # Plane's own server
    "zod@4.6.7"  # what plane resolves when installed alone: with cds's and tauri's zod 3 hoisted instead, the shared
  )              # SDK closes plane's objects and drops its readOnly fields' marks (the other three give the same catalogs)
  PYPI=(
    "mealie-mcp==1.0.1 fastmcp==4.2.3 mcp==2.3.0"  # the SDKs that generate its schemas, pinned
    "transmission-mcp==1.1.0 fastmcp==4.2.3 mcp==2.3.0"
    "mcp-server-openfda==0.2.1 mcp==1.30.0"
  )
  SERVERS=(
    "apple-docs-mcp||apple-docs-mcp"
    "cds-mcp-server||cds-mcp-server"
    "tauri-mcp-server||mcp-server-tauri"
    "plane-mcp-server|PLANE_API_KEY=dummy PLANE_WORKSPACE_SLUG=dummy PLANE_API_HOST_URL=http://127.0.0.1:1|plane-mcp-server"
    "mealie-mcp|MEALIE_BASE_URL=http://127.0.0.1:1 MEALIE_API_KEY=dummy|mealie-mcp"
    "transmission-mcp|TRANSMISSION_HOST=127.0.0.1 TRANSMISSION_PORT=1|transmission-mcp"
    "mcp-server-openfda||mcp-server-openfda"
  )
fi

if [ "$SET" = 37 ]; then  # held_out_37 (issue 33, built alongside held_out_38): a new stick, PyPI and npm, no rule tuned on it
  NPM=(
    "@dynatrace-oss/dynatrace-managed-mcp-server@1.1.1"  # Dynatrace's own server (self-hosted Managed); its engines field asks
  )                                                      # for node 26, yet it lists its tools on node 20 here
  PYPI=(
    "btcpay-mcp==0.3.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp); under mcp 2.x it does not start
    "dk-eli-mcp==0.3.3 fastmcp==3.4.11 mcp==1.30.0"  # the SDKs that generate its schemas, pinned
    "bioportal-mcp==0.1.1 fastmcp==4.2.3 mcp==2.3.0"
    "patrowl-intel-mcp==0.1.0 mcp==1.30.0"  # written for the 1.x SDK
    "swiss-culture-mcp==1.2.0 mcp==2.3.0"
    "screener-mcp==0.5.0 mcp==1.30.0"
  )
  SERVERS=(
    "dynatrace-managed-mcp-server|'DT_ENVIRONMENT_CONFIGS=[{\"apiEndpointUrl\":\"http://127.0.0.1:1\",\"environmentId\":\"dummy\",\"alias\":\"dummy\",\"apiToken\":\"dummy\"}]'|mcp-server-dynatrace"
    "btcpay-mcp|BTCPAY_URL=http://127.0.0.1:1 BTCPAY_API_KEY=dummy BTCPAY_STORE_ID=dummy|btcpay-mcp"
    "dk-eli-mcp||dk-eli-mcp"
    "bioportal-mcp|BIOPORTAL_API_KEY=dummy|bioportal-mcp"
    "patrowl-intel-mcp||patrowl-intel-mcp"
    "swiss-culture-mcp||swiss-culture-mcp"
    "screener-mcp||screener-mcp"
  )
fi

if [ "$SET" = 38 ]; then  # held_out_38 (issue 33, built alongside held_out_37): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@xeroapi/xero-mcp-server@0.0.17"  # Xero's own server; keeps its own zod 3 nested
    "time-mcp@1.0.6"  # asks for zod 4 (the 4.6.7 below)
    "@supabase/mcp-server-postgrest@0.2.0"  # Supabase's own server
    "@turbot/powerpipe-mcp@0.1.0"  # Turbot's own server
    "tailwindcss-mcp-server@0.1.1"
    "zod@4.6.7"
  )
  PYPI=(
    "mcp-nixos==3.1.0 fastmcp==4.2.3 mcp==2.3.0"  # the SDKs that generate its schemas, pinned
    "mcp-shell-server==1.1.14 mcp==1.30.0"  # asks for mcp<2
  )
  SERVERS=(
    "xero-mcp-server|XERO_CLIENT_ID=dummy XERO_CLIENT_SECRET=dummy|xero-mcp-server"
    "time-mcp||time-mcp"
    "mcp-server-postgrest||mcp-server-postgrest --apiUrl http://127.0.0.1:1 --apiKey dummy --schema public"
    "powerpipe-mcp||mcp-server-powerpipe ."  # a mod location is required (the capture directory; no powerpipe binary)
    "tailwindcss-mcp-server||tailwindcss-server"
    "mcp-nixos||mcp-nixos"
    "mcp-shell-server|ALLOW_COMMANDS=ls,cat|mcp-shell-server"
  )
fi

if [ "$SET" = 39 ]; then  # held_out_39 (issue 33, built alongside held_out_40): a new stick, PyPI, no rule tuned on it
  NPM=()
  PYPI=(
    "cedar-mcp==1.4.0 fastmcp==4.2.3 mcp==2.3.0"  # the SDKs that generate its schemas, pinned
    "cerngitlab-mcp==0.3.1 mcp==2.3.0"
    "mcp-redmine-enhanced==2025.9.13.162715.post0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp)
    "apktool-mcp==3.0.0 fastmcp==4.2.3 mcp==2.3.0"  # no apktool binary needed to list
    "candlefeed-mcp==0.1.5 mcp==2.3.0"
  )
  SERVERS=(
    "cedar-mcp|CEDAR_API_KEY=dummy BIOPORTAL_API_KEY=dummy|cedar-mcp"
    "cerngitlab-mcp||cerngitlab-mcp"
    "mcp-redmine-enhanced|REDMINE_URL=http://127.0.0.1:1 REDMINE_API_KEY=dummy|mcp-redmine"
    "apktool-mcp||apktool-mcp"
    "candlefeed-mcp||candlefeed-mcp"
  )
fi

if [ "$SET" = 40 ]; then  # held_out_40 (issue 33, built alongside held_out_39): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@codefuturist/email-mcp@0.2.0"  # asks for zod 4 and node 22; lists its tools on node 20 here
    "@primeng/mcp@22.1.1"  # PrimeTek's own server (PrimeNG), on @primeuix/mcp
    "@gongrzhe/server-travelplanner-mcp@0.1.2"  # keeps its own zod 3 and zod-to-json-schema
    "@googlemaps/code-assist-mcp@0.2.1"  # Google's own server (Maps Platform Code Assist)
    "serper-search-scrape-mcp-server@0.1.2"
  )
  PYPI=(
    "pve-mcp==1.3.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp); under mcp 2.x it does not start
    "domain-rdap-mcp==0.1.0 fastmcp==3.4.4 mcp==1.30.0"  # the SDKs that generate its schemas, pinned
  )
  SERVERS=(
    "email-mcp|MCP_EMAIL_ADDRESS=dummy@example.com MCP_EMAIL_PASSWORD=dummy MCP_EMAIL_IMAP_HOST=127.0.0.1 MCP_EMAIL_SMTP_HOST=127.0.0.1|email-mcp"
    "primeng-mcp||primeng-mcp"
    "server-travelplanner-mcp|GOOGLE_MAPS_API_KEY=dummy|server-travelplanner-mcp"
    "code-assist-mcp||code-assist-mcp"
    "serper-search-scrape-mcp-server|SERPER_API_KEY=dummy|serper-mcp"
    "pve-mcp|PVE_HOST=127.0.0.1 PVE_USER=root@pam PVE_TOKEN_NAME=dummy PVE_TOKEN_VALUE=dummy|pve-mcp"
    "domain-rdap-mcp||domain-rdap-mcp"
  )
fi

if [ "$SET" = 41 ]; then  # held_out_41 (issue 33, built alongside held_out_42 and held_out_43): a new stick, PyPI and npm, no rule tuned on it
  NPM=(
    "@cloudbase/cloudbase-mcp@2.34.6"  # Tencent's own server (CloudBase)
  )
  PYPI=(
    "freshdesk-mcp-support==1.1.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp)
    "zurich-opendata-mcp==0.8.0 mcp==2.3.0"
    "bing-webmaster-mcp==0.1.2 mcp==2.3.0"
    "disk-health-mcp==0.4.0 mcp==2.3.0"
    "clinical-calc-mcp==0.1.0 fastmcp==4.2.3 mcp==2.3.0"  # the SDKs that generate its schemas, pinned
  )
  SERVERS=(
    "cloudbase-mcp|CLOUDBASE_ENV_ID=dummy TENCENTCLOUD_SECRETID=dummy TENCENTCLOUD_SECRETKEY=dummy|cloudbase-mcp"
    "freshdesk-mcp-support|FRESHDESK_API_KEY=dummy FRESHDESK_DOMAIN=dummy.freshdesk.com|freshdesk-mcp-support"
    "zurich-opendata-mcp||zurich-opendata-mcp"
    "bing-webmaster-mcp|BING_WEBMASTER_API_KEY=dummy DO_NOT_TRACK=1|bing-webmaster-mcp"
    "disk-health-mcp|DISK_HEALTH_MCP_CONFIG=disk-health.yaml|disk-health-mcp"
    "clinical-calc-mcp||clinical-calc-mcp"
  )
fi

if [ "$SET" = 43 ]; then  # held_out_43 (issue 33, built alongside held_out_41 and held_out_42): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@knip/mcp@0.0.36"  # Knip's own server
    "@siemens/element-mcp@51.1.0-v.2.0.3"  # Siemens' own server (the Element design system); asks for node 22, lists on 20 here
    "hostinger-api-mcp@1.63.2"  # Hostinger's own servers (one per API area, one with all); its DNS server only
  )
  PYPI=(
    "linux-mcp-server==1.7.0 fastmcp==3.4.11 mcp==1.30.0"  # the SDKs that generate its schemas, pinned
    "coops-mcp==0.1.1 mcp==1.30.0"
    "listmonk-mcp-bridge==0.4.40 mcp==2.3.0"
  )
  SERVERS=(
    "knip-mcp||knip-mcp"
    "element-mcp||element-mcp"
    "hostinger-dns-mcp|API_TOKEN=dummy|hostinger-dns-mcp"
    "linux-mcp-server||linux-mcp-server"
    "coops-mcp||coops-mcp"
    "listmonk-mcp-bridge|LISTMONK_URL=http://127.0.0.1:1 LISTMONK_USERNAME=dummy LISTMONK_PASSWORD=dummy|listmonk-mcp-bridge"
  )
fi

if [ "$SET" = 44 ]; then  # held_out_44 (issue 33, built alongside held_out_42 and held_out_45): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@baidumap/mcp-server-baidu-map@1.0.5"  # Baidu's own server (Baidu Maps)
    "@mcpfun/mcp-server-ccxt@1.2.1"
    "open-meteo-mcp-server@2.1.0"
    "tradingview-mcp-server@0.7.1"
  )
  PYPI=(
    "acuris-mcp==1.1.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp)
    "agriculture-mcp-server==0.1.2 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp)
    "academic-search==0.8.0 fastmcp==3.4.11 mcp==1.30.0"  # the SDKs that generate its schemas, pinned
    "aletheia-mcp==0.3.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp)
  )
  SERVERS=(
    "baidu-map-mcp|BAIDU_MAP_API_KEY=dummy|mcp-server-baidu-map"
    "ccxt-mcp||mcp-server-ccxt"
    "open-meteo-mcp||open-meteo-mcp-server"
    "tradingview-mcp||tradingview-mcp-server"
    "acuris-mcp|ACURIS_API_KEY=dummy|acuris-mcp --stdio"
    "agriculture-mcp-server|USDA_API_KEY=dummy|agriculture-server"
    "academic-search||academic-search"
    "aletheia-mcp||aletheia-mcp"
  )
fi

if [ "$SET" = 42 ]; then  # held_out_42 (issue 33, built alongside held_out_44 and held_out_45): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@google-cloud/storage-mcp@0.6.0"  # Google's own server (Cloud Storage)
    "ref-tools-mcp@3.0.3"
    "jina-mcp-tools@1.2.3"
    "firefox-devtools-mcp@0.9.2"  # --ignore-scripts: no geckodriver download; lists its tools without a browser
    "omnifocus-mcp@1.16.0"  # drives OmniFocus through osascript on macOS; lists its tools anywhere
  )
  PYPI=(
    "apple-health-export-mcp==0.1.1 fastmcp==3.4.4 mcp==1.30.0"  # the SDKs that generate its schemas, pinned
    "nucleotide-archive-mcp==0.0.7 fastmcp==2.14.7 mcp==1.30.0"  # the SDKs that generate its schemas, pinned
    "poker-coach-engine==0.1.0 mcp==2.3.0"
  )
  SERVERS=(
    "storage-mcp|GOOGLE_CLOUD_PROJECT=dummy GOOGLE_APPLICATION_CREDENTIALS=/nonexistent.json|storage-mcp"
    "ref-tools-mcp|REF_API_KEY=dummy|ref-tools-mcp"
    "jina-mcp-tools|JINA_API_KEY=dummy|jina-mcp-tools"
    "firefox-devtools-mcp||firefox-devtools-mcp"
    "omnifocus-mcp||omnifocus-mcp"
    "apple-health-export-mcp||apple-health-export-mcp"
    "nucleotide-archive-mcp||nucleotide_archive_mcp"
    "poker-coach-engine||poker-coach-engine"
  )
fi

if [ "$SET" = 45 ]; then  # held_out_45 (issue 33, built alongside held_out_42 and held_out_44): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@agent-infra/mcp-server-browser@1.2.29"  # ByteDance's own server (agent-infra, UI-TARS); lists its tools without a browser
    "@hugeicons/mcp-server@0.2.2"  # Hugeicons' own server
    "mcpcosmosdb@2.0.0"
  )
  PYPI=(
    "awslabs.documentdb-mcp-server==2.0.1 mcp==2.3.0"  # written for the 2.x SDK
    "awslabs.pcap-analyzer-mcp-server==1.0.2 mcp==1.30.0"  # the low-level 1.x Server, hand-written schemas
    "021-mcp==0.1.4 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp)
  )
  SERVERS=(
    "agent-infra-browser-mcp||mcp-server-browser"
    "hugeicons-mcp||hugeicons-mcp"
    "mcpcosmosdb|COSMOS_CONNECTION_STRING=AccountEndpoint=https://127.0.0.1:1/;AccountKey=ZHVtbXk=; COSMOS_DATABASE_ID=dummy|mcpcosmosdb"
    "documentdb-mcp-server||awslabs.documentdb-mcp-server"
    "pcap-analyzer-mcp-server||awslabs.pcap-analyzer-mcp-server"
    "021-mcp|TRACES_API_KEY=dummy TRACES_BASE_URL=http://127.0.0.1:1|021-mcp"
  )
fi

if [ "$SET" = 46 ]; then  # held_out_46 (issue 33, built alongside held_out_47 and held_out_48): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@flightradar24/fr24api-mcp@1.0.2"  # Flightradar24's own server
    "ableton-cookbook-mcp@0.1.6"
  )
  PYPI=(
    "acb-tax-mcp==0.5.0 mcp==2.3.0"  # written for the 2.x SDK
    "at-ris-mcp==1.1.0 fastmcp==2.14.7"  # its [mcp] extra: FastMCP
    "colleag-mcp-ups==0.1.0 mcp==1.30.0"  # written for the 1.x SDK
    # actionstep-mcp==0.2.0 lists 144 tools offline: left out, too many to label by hand by this round's deadline
    # ballstreet-mcp==1.1.1 left out: it signs in to its site before it serves, so it lists nothing offline
  )
  SERVERS=(
    "fr24api-mcp|FR24_API_KEY=dummy|mcp-fr24api-mcp"
    "ableton-cookbook-mcp||ableton-cookbook-mcp"
    "acb-tax-mcp||acb-tax-mcp"
    "at-ris-mcp||at-ris-mcp"
    "colleag-mcp-ups|UPS_CLIENT_ID=dummy UPS_CLIENT_SECRET=dummy UPS_ACCOUNT_NUMBER=dummy|colleag-mcp-ups"
  )
fi

if [ "$SET" = 47 ]; then  # held_out_47 (issue 33, built alongside held_out_46 and held_out_48): a new stick, PyPI, no rule tuned on it
  # tried and left out: @dopplerhq/mcp-server 1.0.5 (checks its token against Doppler's API before it lists a tool),
  # awslabs.kinesis-mcp-server 0.1.3 (imports mcp.server.fastmcp, gone in mcp 2.x, and passes FastMCP a `version` that
  # mcp 1.30.0's does not take: it starts with neither)
  NPM=()
  PYPI=(
    "awslabs.valkey-mcp-server==1.1.1 mcp==2.3.0"  # written for the 2.x SDK
    "awslabs.aws-appsync-mcp-server==0.2.1 mcp==2.3.0"  # written for the 2.x SDK
    "gitea-mcp==0.5.1 fastmcp==2.14.7"  # FastMCP 2.x
    "clr-portainer-mcp==1.0.1 fastmcp==2.14.7"  # FastMCP 2.x
  )
  SERVERS=(
    "valkey-mcp-server|VALKEY_HOST=127.0.0.1 VALKEY_PORT=1 AWS_REGION=us-east-1|awslabs.valkey-mcp-server"
    "aws-appsync-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy|awslabs.aws-appsync-mcp-server"
    "gitea-mcp|GITEA_URL=http://127.0.0.1:1 GITEA_TOKEN=dummy|gitea-mcp"
    "clr-portainer-mcp|PORTAINER_URL=http://127.0.0.1:1 PORTAINER_API_KEY=dummy|clr-portainer-mcp"
  )
fi

if [ "$SET" = 48 ]; then  # held_out_48 (issue 33, built alongside held_out_46 and held_out_47): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@mem0/mcp-server@0.0.1"  # Mem0's own server; a dummy API key
    "@futurelab-studio/latest-science-mcp@0.1.40"
  )
  PYPI=(
    "biomcp-python==0.7.3 mcp==1.30.0"  # GenomOncology's server (it pins mcp>=1.12.3,<2)
    "paper-search-mcp==0.1.4 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp)
  )
  # tried and left out: obsidian-mcp-server (3.2.12 wants an @cyanheads/mcp-ts-core the registry lacks; 2.0.7 exits
  # when the Obsidian Local REST API does not answer at start), caldav-mcp 0.10.0 (connects to its CalDAV server at start)
  SERVERS=(
    "mem0-mcp-server|MEM0_API_KEY=dummy|mem0-mcp"
    "latest-science-mcp||latest-science-mcp"
    "biomcp-python||biomcp run"
    "paper-search-mcp||paper-search-mcp"
  )
fi

if [ "$SET" = 49 ]; then  # held_out_49 (issue 33, built alongside held_out_50 and held_out_51): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "deepl-mcp-server@0.1.3-beta.0"  # DeepL's own server; a dummy API key
  )
  PYPI=(
    "acquisition-gov-mcp==1.0.15 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2,<3)
    "a11y-expert-mcp==0.1.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp)
    "accessibility-mcp-server==0.1.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp)
    "apillow-mcp==0.1.5 mcp==1.30.0"  # Apillow's own server (it pins mcp>=1.0,<2); a dummy API key
  )
  SERVERS=(
    "deepl-mcp-server|DEEPL_API_KEY=dummy|deepl-mcp-server"
    "acquisition-gov-mcp||acquisition-gov-mcp"
    "a11y-expert-mcp||a11y-expert-mcp"
    "accessibility-mcp-server||accessibility-mcp-server"
    "apillow-mcp|APILLOW_API_KEY=dummy APILLOW_API_URL=http://127.0.0.1:1|apillow-mcp"
  )
fi

if [ "$SET" = 50 ]; then  # held_out_50 (issue 33, built alongside held_out_49 and held_out_51): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@paddle/paddle-mcp@0.1.6"  # Paddle's own server; a dummy API key
  )
  PYPI=(
    "plausible-mcp==0.1.2 mcp==1.30.0"  # written for the 1.x SDK
    # pipedrive-mcp==0.5.0 lists 62 tools offline (with PIPEDRIVE_API_KEY=dummy): left out, too many to label by hand by
    # this round's deadline
  )
  SERVERS=(
    "paddle-mcp|PADDLE_API_KEY=dummy PADDLE_ENVIRONMENT=sandbox|paddle --api-key=dummy --environment=sandbox"  # its default tool set (non-destructive)
    "plausible-mcp|PLAUSIBLE_API_KEY=dummy PLAUSIBLE_BASE_URL=http://127.0.0.1:1|plausible-mcp"
  )
fi

if [ "$SET" = 51 ]; then  # held_out_51 (issue 33, built alongside held_out_52, held_out_53 and held_out_54): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@jpisnice/shadcn-ui-mcp-server@2.0.0"  # its default framework (React); no GitHub token
    "mcp-server-gsc@0.3.0"  # a dummy credentials path: it reads the file only when a tool is called
  )
  PYPI=(
    "usgs-mcp==0.1.1 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp<2; mcp.server.fastmcp)
    "german-archives-mcp==0.3.0 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2,<3; MCPServer)
    "vivino-mcp==0.1.6 mcp==1.30.0"  # written for the 1.x SDK's FastMCP (mcp.server.fastmcp; it asks mcp>=1.27.2)
    # zenmoney-mcp 0.1.0: left out, it requires Python 3.12 (this machine has 3.11)
  )
  # captured with PYTHON set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "shadcn-ui-mcp-server||shadcn-mcp"
    "mcp-server-gsc|GOOGLE_APPLICATION_CREDENTIALS=/nonexistent/dummy-service-account.json|mcp-server-gsc"
    "usgs-mcp||usgs-mcp"
    "german-archives-mcp||german-archives-mcp"
    "vivino-mcp||vivino-mcp"
  )
fi

if [ "$SET" = 52 ]; then  # held_out_52 (issue 33, built alongside held_out_51, held_out_53 and held_out_54): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "mcp-discord@1.3.4"  # a dummy bot token (its login at start fails offline; it lists its tools all the same)
    "youtube-data-mcp-server@1.0.16"  # a dummy API key
    # european-parliament-mcp-server@1.1.26 lists 61 tools offline: left out, too many to label by hand by this round's
    # deadline; @coingecko/coingecko-mcp@8.2.0 does not install (a dependency is a tarball outside the registry)
  )
  PYPI=(
    "ato-mcp==0.8.32 fastmcp==3.4.11 mcp==1.30.0"  # written for FastMCP (it requires fastmcp>=2,<4)
    "co-eli-mcp==0.3.3 fastmcp==3.4.11 mcp==1.30.0"  # written for FastMCP 3 (it requires fastmcp>=3.4,<4)
    # callrail-mcp==1.3.1 (57 tools) and bill4time-mcp==0.3.0 (59 tools) list offline with a dummy key: left out, too
    # many to label by hand by this round's deadline; aviationstack-mcp and caltrain-mcp require Python 3.13
  )
  SERVERS=(
    "mcp-discord|DISCORD_TOKEN=dummy|mcp-discord"
    "youtube-data-mcp-server|YOUTUBE_API_KEY=dummy|youtube-data-mcp-server"
    "ato-mcp|HOME=$WORK/ato-home|ato-mcp"
    "co-eli-mcp|CO_ELI_BASE_URL=http://127.0.0.1:1 CO_ELI_CACHE_DIR=$WORK/co-eli-cache CO_ELI_AUDIT_DIR=$WORK/co-eli-audit|co-eli-mcp"
  )
fi

if [ "$SET" = 53 ]; then  # held_out_53 (issue 33, built alongside held_out_51, held_out_52 and held_out_54): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "unofficial-ravensburger-playhub-mcp@1.2.4"  # Disney Lorcana events and stores (Ravensburger Play Hub); no key
    # european-parliament-mcp-server@1.1.26 lists 61 tools offline: left out, too many to label by hand by this round's
    # deadline; @dotzero.ai/work-order-mcp@1.5.0 does not install (its @dotzero.ai/shared is not on the registry)
  )
  PYPI=(
    "meteor-mcp==0.3.0 fastmcp==4.2.3"  # written for FastMCP 4 (it pins fastmcp>=4,<5)
    "atomno-mcp-cbr-rates==0.1.11 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp<2)
    "mcp-cfdi-mx==0.4.1 fastmcp==4.2.3"  # on FastMCP through mcp-einvoicing-core (fastmcp>=2): the release it resolves today
  )
  # captured with MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "unofficial-ravensburger-playhub-mcp||unofficial-ravensburger-playhub-mcp"
    "meteor-mcp||meteor-mcp"
    "atomno-mcp-cbr-rates||mcp-cbr-rates"  # no key; it fetches nothing before a call
    "mcp-cfdi-mx||mcp-cfdi-mx"
  )
fi

if [ "$SET" = 54 ]; then  # held_out_54 (issue 33, built alongside held_out_51, held_out_52 and held_out_53): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "mcp-arr-server@1.7.3"  # Sonarr, Radarr, Lidarr and Prowlarr: Radarr's tools only (a dummy key, at 127.0.0.1:1)
  )
  PYPI=(
    "arduino-mcp==0.1.2 fastmcp==2.13.0"  # written for FastMCP 2.x (it asks fastmcp>=0.1.0; released 2025-11, as 2.13 was)
    "boardgame-rules-mcp==0.6.1 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2.3,<3)
    "airquality-tr-mcp==1.1.0 fastmcp==3.4.11"  # written for FastMCP 3.x (it asks fastmcp>=3.4.4)
    "chemdraw-mcp==0.6.0 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2.3,<3)
  )
  SERVERS=(
    "mcp-arr-server|RADARR_URL=http://127.0.0.1:1 RADARR_API_KEY=dummy|mcp-arr"  # all four services give 64 tools (too many to label
    # by hand by this round's deadline); Radarr alone 28, the shared ones (arr_status, search, fetch, TRaSH guides) included
    "arduino-mcp||arduino-mcp"
    "boardgame-rules-mcp||boardgame-rules-mcp serve"
    "airquality-tr-mcp||airquality-tr-mcp"
    "chemdraw-mcp||chemdraw-mcp"
  )
fi

if [ "$SET" = 55 ]; then  # held_out_55 (issue 33, built alongside held_out_56, held_out_57 and held_out_58): a new stick, PyPI, no rule tuned on it
  NPM=(
    # resend-mcp@2.22.0 (Resend's own server) lists 105 tools offline with RESEND_API_KEY=re_dummy and has no option to
    # list fewer: left out, too many to label by hand
    # @gongrzhe/server-redis-mcp@1.0.0 connects to Redis before it lists its tools: left out
    # @jambonz/mcp-schema-server@0.5.3 does not install (its dependency @jambonz/tools is not on the registry): left out
  )
  PYPI=(
    "wiktionary-de-mcp==0.1.1 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2.3,<3)
    "sonic-pi-mcp==0.1.3 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.28.1,<2)
    "eth-library-mcp==0.4.0 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2,<3)
    "jp-verify-mcp==0.1.0 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2.3,<3); a dummy API key
    "web-check-mcp==0.3.0"  # its own JSON-RPC loop, no SDK
  )
  SERVERS=(
    "wiktionary-de-mcp||wiktionary-de-mcp"
    "sonic-pi-mcp||sonic-pi-mcp"
    "eth-library-mcp||eth-library-mcp"
    "jp-verify-mcp|JPVERIFY_API_KEY=dummy JPVERIFY_BASE_URL=http://127.0.0.1:1|jp-verify-mcp"
    "web-check-mcp||web-check-mcp --stdio --base-url http://127.0.0.1:1"
  )
fi

if [ "$SET" = 56 ]; then  # held_out_56 (issue 33, built alongside held_out_55, held_out_57 and held_out_58): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "flowbite-mcp@1.1.5"  # Themesberg's own server for the Flowbite UI library; no key
    # @ashwinighuge/jenkins-mcp-server@1.0.7 installs, but its bin runs a Python server that requires Python 3.12: left out
  )
  PYPI=(
    "arch-wiki-mcp==2.1.0"  # no SDK: it speaks the protocol itself (no dependencies)
    "halflife-mcp==0.1.2 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2.3,<3)
    "mcp-jama==0.1.5 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.7,<2)
    "deputy-mcp==0.4.2 fastmcp==4.2.3"  # written for FastMCP 4 (it pins fastmcp>=4.0.3,<5); a dummy token
    # mcp-ip2location-io 1.1.2 requires Python 3.13; benethos-lexware-office-mcp 0.6.2 lists no tools without a policy
    # file naming the ones to expose: left out
  )
  # captured with MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "flowbite-mcp||flowbite-mcp"
    "arch-wiki-mcp||arch-wiki-mcp"
    "halflife-mcp|HALFLIFE_HOME=$WORK/halflife-home HALFLIFE_EMBED=off|halflife-mcp"
    "mcp-jama||mcp-jama"  # no JAMA_CONFIG: it reads its connection file only when a tool is called
    "deputy-mcp|DEPUTY_API_TOKEN=dummy DEPUTY_BASE_URL=https://127.0.0.1:1 DEPUTY_ALLOW_CUSTOM_HOST=true HOME=$WORK/deputy-home|deputy-mcp"  # it wants an https
    # address at deputy.com; the custom-host switch lets it take 127.0.0.1:1 (nothing is fetched before a call)
  )
fi

if [ "$SET" = 57 ]; then  # held_out_57 (issue 33, built alongside held_out_55, held_out_56 and held_out_58): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "recipe-mcp@1.1.2"  # recipes from several sources; no key
    # strapi-content-mcp@0.1.6 does not install (its @strapi/admin@5.55.1 is not on the registry)
  )
  PYPI=(
    "datawrapper-mcp==0.4.0 fastmcp==4.0.3 mcp==2.3.0"  # written for FastMCP 4 (it pins fastmcp[apps]==4.0.3, mcp>=2,<3)
    "mensa-stw-vp-mcp==0.3.1 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2,<3)
    "edinet-mcp==0.9.0 fastmcp==2.14.7 mcp==1.30.0"  # written for FastMCP 2 (it pins fastmcp>=2,<3)
    "microsoft-clarity-mcp==0.1.2 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2,<3)
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "recipe-mcp||recipe-mcp-server"
    "datawrapper-mcp|DATAWRAPPER_ACCESS_TOKEN=dummy|datawrapper-mcp"
    "mensa-stw-vp-mcp||mensa-stw-vp-mcp"
    "edinet-mcp|EDINET_API_KEY=dummy|edinet-mcp serve"
    "microsoft-clarity-mcp|CLARITY_API_TOKEN=dummy|microsoft-clarity-mcp"
  )
fi

if [ "$SET" = 58 ]; then  # held_out_58 (issue 33, built alongside held_out_55, held_out_56 and held_out_57): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "spider-cloud-mcp@1.2.2"  # Spider's own server (web crawling and scraping); a dummy API key
    "@adamhancock/bullmq-mcp@1.0.7"  # BullMQ job queues; no Redis (it connects when a tool is called)
  )
  PYPI=(
    "cldf-mcp==0.1.0 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2.3,<3)
    "degiro-mcp==0.1.0 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2.2,<3); no login before a call
    "constitution-mcp==0.2.2 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.27,<2)
    # comdirect-mcp 0.6.1: left out, no release installs on Python 3.11
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "spider-cloud-mcp|SPIDER_API_KEY=dummy|spider-cloud-mcp"
    "bullmq-mcp|REDIS_URL=redis://127.0.0.1:1|bullmq-mcp"
    "cldf-mcp||cldf-mcp serve --data-dir $WORK/cldf-data"
    "degiro-mcp|XDG_CACHE_HOME=$WORK/degiro-cache|degiro-mcp"
    "constitution-mcp||constitution-mcp"
  )
fi

if [ "$SET" = 60 ]; then  # held_out_60 (issue 33, built alongside held_out_59 and held_out_61): a new stick, PyPI, no rule tuned on it
  NPM=()  # PyPI only: no npm install of the default list
  PYPI=(
    "gsa-calc-mcp==1.0.21 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2,<3); the GSA CALC+ API, no key
    "awslabs-roda-mcp-server==0.1.7 fastmcp==3.4.11"  # AWS Labs; written for FastMCP 3 (it pins fastmcp>=3.2.0), which brings its own mcp
    "masterkala-mcp==0.4.2 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2.2,<3); read-only shop search, no key
    # greymatter-mcp 0.1.6: left out, it lists 147 tools (too many to label well)
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "gsa-calc-mcp||gsa-calc-mcp"
    "awslabs-roda-mcp-server|AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_CONFIG_FILE=$WORK/aws-config|awslabs.roda-mcp-server"
    "masterkala-mcp||masterkala-mcp"
  )
fi

if [ "$SET" = 62 ]; then  # held_out_62 (issue 33, built alongside held_out_63 to held_out_66): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@niyogi/render-mcp@1.0.1"  # Render.com hosting; a dummy API key, its `start` command
    # @kentico/management-api-mcp 31.8.4: left out, it lists 0 tools offline (MANAGEMENT_API_URL at 127.0.0.1:1)
  )
  PYPI=(
    "mcp-server-panchangam==1.18.19 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.0,<2); Hindu calendar, no key
    "norway-archives-mcp==0.1.0 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2.0,<3); no key
    # eclipse-ditto-mcp-server 0.1.1 and lorcana-cards-mcp 2.5.1: left out, they need Python 3.12 / 3.14 (this is 3.11);
    # edhrec-mcp and bitrix24-mcp: left out, no release installs here; aapanel-mcp 1.3.0: left out, about 280 tools;
    # mcp-server-opensearch 0.0.2: left out, it installs no entry point (and no mcp)
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "render-mcp|HOME=$WORK RENDER_API_KEY=dummy|render-mcp start"
    "mcp-server-panchangam||mcp-server-panchangam"
    "norway-archives-mcp||norway-archives-mcp"
  )
fi

if [ "$SET" = 66 ]; then  # held_out_66 (issue 33, built alongside held_out_62 to held_out_65): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@primevue/mcp@5.0.1"  # PrimeTek's own server (PrimeVue component documentation, bundled; no network)
  )
  PYPI=(
    "mcp-apisix==0.4.0 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2,<3); Apache APISIX Admin API, read-only by default
    "french-tax-mcp==1.1.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp); French tax calculations
    "football-api-mcp==0.1.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp); football-data.org, a dummy API key
    # mcp-cpbl-statistics 0.1.1 and aussiebb-blade-mcp 0.4.0: left out, they need Python >= 3.12
    # freeipa-mcp-py 0.2.2: left out, its gssapi dependency does not build here
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "primevue-mcp||primevue-mcp"
    "mcp-apisix|APISIX_ADMIN_URL=http://127.0.0.1:1 APISIX_ADMIN_KEY=dummy|mcp-apisix"
    "french-tax-mcp||french-tax-mcp"
    "football-api-mcp|FOOTBALL_DATA_API_KEY=dummy|$WORK/venv-football-api-mcp/bin/python -m football_api_mcp"
  )
fi

if [ "$SET" = 63 ]; then  # held_out_63 (issue 33, built alongside held_out_62 and held_out_64 to held_out_66): a new stick, PyPI, no rule tuned on it
  NPM=()  # PyPI only: no npm install of the default list
  PYPI=(
    "f1-mcp-server==0.1.0 mcp==1.30.0"  # written for the 1.x SDK (2025-04, mcp>=1.6.0); Formula One data via FastF1
    "allinkl-mail-mcp==0.1.0 mcp[cli]==1.30.0"  # written for the 1.x SDK (it pins mcp[cli]>=1.2,<2); all-inkl.com mail, dummy login
    "countbean-mcp==0.7.0 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.28,<2); Beancount accounting
    # azure-iot-hub-mcp-server 0.1.0 and mcp-server-opendal: left out, they do not install here; mcp-server-oxigraph 0.1.0: left out, it passes
    # FastMCP(version=...), which no current 1.x SDK takes, and the old SDK that ignores it does not answer a listing here
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "f1-mcp-server|HOME=$WORK|f1-mcp-server"
    "allinkl-mail-mcp|HOME=$WORK MAIL_USER=dummy MAIL_PASSWORD=dummy MAIL_IMAP_HOST=127.0.0.1 MAIL_SMTP_HOST=127.0.0.1|allinkl-mail-mcp"
    "countbean-mcp|HOME=$WORK|countbean-mcp"
  )
fi

if [ "$SET" = 64 ]; then  # held_out_64 (issue 33, built alongside held_out_62, held_out_63, held_out_65 and held_out_66): a new stick, PyPI, no rule tuned on it
  NPM=()  # PyPI only: no npm install of the default list
  PYPI=(
    "mcp-server-paystack==0.1.0 mcp[cli]==1.30.0"  # written for the 1.x SDK (mcp[cli]>=1.2.0); Paystack payments, a dummy secret key
    "mcp-server-yandex-market-seller==0.6.0 mcp[cli]==1.30.0"  # written for the 1.x SDK (mcp>=1.0.0); Yandex Market seller API, a dummy token
    "mcp-outline-fastmcp==0.0.1.dev45 mcp[cli]==1.30.0"  # written for the 1.x SDK (mcp[cli]>=1.20.0); Outline wiki, a dummy API key
    # ukds-mcp: left out, no installable version here
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "mcp-server-paystack|HOME=$WORK PAYSTACK_SECRET_KEY=sk_test_dummy PAYSTACK_BASE_URL=http://127.0.0.1:1|mcp-server-paystack"
    "mcp-server-yandex-market-seller|HOME=$WORK YM_TOKEN=dummy YM_CAMPAIGN_ID=1 YM_BUSINESS_ID=1|mcp-server-yandex-market-seller"
    "mcp-outline-fastmcp|HOME=$WORK OUTLINE_API_KEY=dummy OUTLINE_API_URL=http://127.0.0.1:1/api|mcp-outline"
  )
fi

if [ "$SET" = 67 ]; then  # held_out_67 (issue 33, built alongside held_out_63 to held_out_65 and held_out_68): a new stick, PyPI, no rule tuned on it
  NPM=()  # PyPI only: no npm install of the default list
  PYPI=(
    "color-mcp-server==0.1.0 mcp[cli]==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp; it pins mcp[cli]>=1.2.0); colour conversion, no network
    "cra-compliance-mcp==1.3.15 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp; it pins mcp>=1.28.0); EU Cyber Resilience Act checks
    "mcp-geo==0.3.0 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.0.0); geometry and geodesy tools, no key
    # chuk-mcp-physics 0.5.1: left out, it lists 62 tools (too many to label well); mcp-gdbserver 0.1.1: left out, its
    # entry point imports a main that its package does not have; mcp-eircode: left out, no installable version here
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "color-mcp-server|HOME=$WORK|color-mcp-server"
    "cra-compliance-mcp|HOME=$WORK|cra-compliance-mcp"
    "mcp-geo|HOME=$WORK|mcp-geo"
  )
fi

if [ "$SET" = 68 ]; then  # held_out_68 (issue 33, built alongside held_out_63 to held_out_65 and held_out_67): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@karakeep/mcp@0.33.1"  # Karakeep's own server (bookmarks); a dummy API key, its API at 127.0.0.1:1
    "ashby-mcp@1.7.3"  # Ashby ATS, community; a dummy API key
    # @fhirfly-io/mcp-server 0.9.0: left out, it exits at start unless its API key has FHIRfly's 'ffly_' form
  )
  PYPI=(
    "entraadm-mcp==1.8.1 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2,<3); Microsoft Entra ID sign-in and audit logs
    "technolife-mcp==0.4.2 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2.2,<3); Technolife electronics shop, read-only
    "tiktok-studio-mcp==0.1.4 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.2,<2); TikTok publishing, a dummy client key
    # lr-mcp and audio-slice-mcp: left out, no release installs on this Python (3.11)
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "karakeep-mcp|HOME=$WORK KARAKEEP_API_ADDR=http://127.0.0.1:1 KARAKEEP_API_KEY=dummy|karakeep-mcp"
    "ashby-mcp|HOME=$WORK ASHBY_API_KEY=dummy|ashby-mcp"
    "entraadm-mcp|HOME=$WORK|entraadm-mcp"
    "technolife-mcp|HOME=$WORK|technolife-mcp"
    "tiktok-studio-mcp|HOME=$WORK TIKTOK_MCP_CLIENT_KEY=dummy TIKTOK_MCP_CLIENT_SECRET=dummy|tiktok-studio-mcp"
  )
fi

if [ "$SET" = 70 ]; then  # held_out_70 (issue 33, built alongside held_out_69, held_out_71 and held_out_72): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "mcp-alertmanager@2.1.1"  # Prometheus Alertmanager, community (a Go binary shipped in its npm platform package); its URL at 127.0.0.1:1
    "@abhaybabbar/retellai-mcp-server@1.0.2"  # Retell AI voice agents, community; a dummy API key
  )
  PYPI=(
    "allure-testops-mcp==0.9.3 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.2,<2); Allure TestOps test management, read-only by default
    "couchdb-mcp-server==0.1.0 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.12,<2); Apache CouchDB, read-only
    # chirpstack-mcp-server 0.1.1: left out, not installed: its default toolsets hold about 40 tools, more than could be
    # labelled well before the deadline
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "mcp-alertmanager|HOME=$WORK ALERTMANAGER_URL=http://127.0.0.1:1|mcp-alertmanager"
    "retellai-mcp|HOME=$WORK RETELL_API_KEY=dummy|retellai-mcp-server"
    "allure-testops-mcp|HOME=$WORK ALLURE_URL=http://127.0.0.1:1 ALLURE_TOKEN=dummy|allure-testops-mcp"
    "couchdb-mcp-server|HOME=$WORK COUCHDB_MCP_COUCHDB_URL=http://127.0.0.1:1|couchdb-mcp-server"
  )
fi

if [ "$SET" = 71 ]; then  # held_out_71 (issue 33, built alongside held_out_69, held_out_70 and held_out_72): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@rollbar/mcp-server@0.6.0"  # Rollbar's own server (error tracking); a dummy access token
    "mcp-server-pdfnoodle@1.2.0"  # pdf noodle's own server (PDF generation from templates); a dummy API key
  )
  PYPI=(
    "fred-mcp-server==0.2.2 fastmcp==3.4.11"  # written for FastMCP 3 (it pins fastmcp>=3,<4); FRED economic data, a dummy API key
    "polish-archives-mcp==0.1.1 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2,<3); Polish vital-records indexes (Geneteka)
    # penpot-api-mcp, ceph-mcp, bmkg-api-mcp and keel-mcp: left out, every release asks Python >= 3.12 (this one is 3.11)
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "rollbar-mcp-server|HOME=$WORK ROLLBAR_ACCESS_TOKEN=dummy ROLLBAR_API_BASE=http://127.0.0.1:1|rollbar-mcp-server"
    "mcp-server-pdfnoodle|HOME=$WORK PDFNOODLE_API_KEY=dummy|mcp-server-pdfnoodle"
    "fred-mcp-server|HOME=$WORK FRED_API_KEY=dummy|fred-mcp-server"
    "polish-archives-mcp|HOME=$WORK|polish-archives-mcp"
  )
fi

if [ "$SET" = 69 ]; then  # held_out_69 (issue 33, built alongside held_out_70, held_out_71 and held_out_72): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "cookunity-mcp-server@1.3.4"  # CookUnity meal delivery, community (unofficial); dummy login
  )
  PYPI=(
    "mcp-moodle==0.1.2 mcp==1.30.0"  # written for the 1.x SDK (it asks mcp[cli]>=1.2); Moodle web services, community
    "legendkeeper-mcp==0.1.2 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2.3,<3); LegendKeeper worldbuilding API, community (unofficial)
    "trino-mcp==0.2.7 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.6,<2); Trino SQL engine, read-only by default; started with AUTH_METHOD=NONE (a password needs HTTPS before listing)
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "cookunity-mcp-server|HOME=$WORK COOKUNITY_EMAIL=dummy@example.com COOKUNITY_PASSWORD=dummy|cookunity-mcp-server"
    "mcp-moodle|HOME=$WORK MOODLE_URL=http://127.0.0.1:1 MOODLE_TOKEN=dummy|mcp-moodle"
    "legendkeeper-mcp|HOME=$WORK LEGENDKEEPER_API_KEY=dummy LEGENDKEEPER_BASE_URL=http://127.0.0.1:1|legendkeeper-mcp"
    "trino-mcp|HOME=$WORK TRINO_HOST=127.0.0.1 TRINO_PORT=1 TRINO_USER=dummy AUTH_METHOD=NONE|trino-mcp"
  )
fi

if [ "$SET" = 74 ]; then  # held_out_74 (issue 33, built alongside held_out_69, held_out_72 and held_out_73): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@r-huijts/strava-mcp-server@1.2.1"  # Strava (activities, segments, routes), community; dummy OAuth credentials
    # @runpod/mcp-server 4.0.0 (Runpod's own): left out after its capture: 68 tools, too many to label well
  )
  PYPI=(
    "cellartracker-mcp==0.1.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp, mcp unpinned); CellarTracker wine cellar, community
    "imdb-mcp==1.0.1 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.0.0, low-level Server); IMDb titles and names, community
    # cisco-nso-mcp-server: left out, not installed: pip found no release it could install here
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "strava-mcp-server|HOME=$WORK STRAVA_CLIENT_ID=dummy STRAVA_CLIENT_SECRET=dummy STRAVA_ACCESS_TOKEN=dummy STRAVA_REFRESH_TOKEN=dummy|strava-mcp-server"
    "cellartracker-mcp|HOME=$WORK CT_USERNAME=dummy CT_PASSWORD=dummy|cellartracker-mcp"
    "imdb-mcp|HOME=$WORK|imdb-mcp"
  )
fi

if [ "$SET" = 73 ]; then  # held_out_73 (issue 33, built alongside held_out_69, held_out_72 and held_out_74): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@owine/unifi-protect-mcp@2.14.0"  # UniFi Protect (cameras, NVR) Integration API, community; a dummy API key, its host at 127.0.0.1:1
  )
  PYPI=(
    "ghost-cms-mcp==0.1.1 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp, it asks mcp>=1.0); Ghost CMS Admin API, community
    "clr-uptime-kuma-mcp==1.1.0 fastmcp==2.14.7"  # written for FastMCP 2 (it pins fastmcp>=2.14,<3); Uptime Kuma monitoring, community
    "freshrss-mcp==0.2.5 mcp==1.30.0"  # written for the 1.x SDK (it asks mcp>=1.0); FreshRSS feed reader, community
    # gotify-mcp: left out, not installed: pip found no release it could install here
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "unifi-protect-mcp|HOME=$WORK UNIFI_PROTECT_HOST=127.0.0.1:1 UNIFI_PROTECT_API_KEY=dummy|unifi-protect-mcp"
    "ghost-cms-mcp|HOME=$WORK GHOST_URL=http://127.0.0.1:1 GHOST_ADMIN_KEY=0123456789abcdef:0123456789abcdef|ghost-cms-mcp"
    "clr-uptime-kuma-mcp|HOME=$WORK UPTIME_KUMA_URL=http://127.0.0.1:1 UPTIME_KUMA_TOKEN=dummy|clr-uptime-kuma-mcp"
    "freshrss-mcp|HOME=$WORK FRESHRSS_URL=http://127.0.0.1:1 FRESHRSS_EMAIL=dummy FRESHRSS_API_PASSWORD=dummy|freshrss-mcp"
  )
fi

if [ "$SET" = 76 ]; then  # held_out_76 (issue 33, built alongside held_out_75, held_out_77 and held_out_78): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "attio-mcp-server@0.0.2"  # Attio CRM, community; a dummy API key
    "@vuetify/mcp@0.12.1"  # Vuetify's own server (component docs and API); no GitHub token
  )
  PYPI=(
    "steam-info-mcp==0.1.1 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp, it asks mcp>=0.1.0); Steam Web API, community; a dummy API key
    "certindex-mcp==0.3.0 mcp==2.3.0"  # written for the 2.x SDK (it pins mcp>=2,<3, MCPServer); CertIndex's certificate transparency search, vendor; a dummy API key, its base URL at 127.0.0.1:1
    # grocy-mcp 0.2.0 (FastMCP 3): left out, not installed: 89 tools, too many to label well
    # unesco-mcp 0.1.1: left out, not installed: it builds its indicator index from the UIS API at start
    # oura-mcp-server and migadu-mcp: left out, not installed: every release asks Python >=3.12 or >=3.13 (this machine has 3.11)
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "attio-mcp-server|HOME=$WORK ATTIO_API_KEY=dummy|attio-mcp-server"
    "vuetify-mcp|HOME=$WORK XDG_CACHE_HOME=$WORK/cache VUETIFY_API_SERVER=http://127.0.0.1:1|node $WORK/node_modules/@vuetify/mcp/bin/cli.js"  # its bin is a bare `mcp`
    "steam-info-mcp|HOME=$WORK STEAM_API_KEY=dummy|steam-info-mcp"
    "certindex-mcp|HOME=$WORK CERTINDEX_API_KEY=dummy CERTINDEX_BASE_URL=http://127.0.0.1:1|certindex-mcp"
  )
fi

if [ "$SET" = 75 ]; then  # held_out_75 (issue 33, built alongside held_out_76, held_out_77 and held_out_78): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@mastergo/magic-mcp@0.1.2"  # MasterGo's own server (design files to code); a dummy token, its API at 127.0.0.1:1
    # @didit-protocol/mcp-server 4.0.0 (82 tools) and @serpstat/serpstat-mcp-server 1.1.5 (65 tools), vendors' own:
    # left out after their capture, too many to label well
  )
  PYPI=(
    "mcp-server-redcap==0.3.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp, it asks mcp[cli]>=1.0); REDCap research data capture, community
    "mcp-twfood==0.1.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp, it asks mcp>=1.0); Taiwan agricultural wholesale prices (twfood.cc), community
    "inav-mcp==1.0.0 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.0,<2); iNAV flight controllers over MSP/serial, community
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "mastergo-magic-mcp|HOME=$WORK MASTERGO_API_TOKEN=dummy API_BASE_URL=http://127.0.0.1:1|mastergo-magic-mcp"
    "mcp-server-redcap|HOME=$WORK REDCAP_URL=http://127.0.0.1:1/api/ REDCAP_TOKEN=dummy|mcp-server-redcap"
    "mcp-twfood|HOME=$WORK|mcp-twfood"
    "inav-mcp|HOME=$WORK|inav-mcp"
  )
fi

if [ "$SET" = 77 ]; then  # held_out_77 (issue 33, built alongside held_out_75, held_out_76 and held_out_78): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "vercel-mcp@0.0.7"  # the Vercel REST API, community; a dummy key
  )
  PYPI=(
    "aso-mcp==0.1.2 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp, it asks mcp[cli]>=1.0.0); App Store keyword research over the iTunes search API, community; no key
    "mcp-tcmb-exchange==0.1.8 mcp==1.30.0"  # written for the 1.x SDK (the low-level Server, it asks mcp>=1.19.0); the Central Bank of the Republic of Turkey's exchange rates, community; no key
    "torna-mcp==0.1.2 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp; it asks fastmcp>=0.3.0); Torna API documentation platform, community; a dummy token, its URL at 127.0.0.1:1
    "overleaf-mcp-server==0.4.1 mcp==1.30.0"  # written for the 1.x SDK (the low-level Server with pydantic input models, it asks mcp>=1.0.0); Overleaf projects over git, community; a dummy token, its config in $WORK
    "surreal-mcp==0.2.0 fastmcp==2.14.7 mcp==1.30.0"  # written for FastMCP 2 (it asks fastmcp>=2.11.0, released before FastMCP 3); SurrealDB, community; its database at 127.0.0.1:1
    # evernote-mcp 0.4.1 (2.x SDK): left out, not installed: 52 tools, too many to label well
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "vercel-mcp|HOME=$WORK|vercel-mcp VERCEL_API_KEY=dummy"  # the key goes on its command line
    "aso-mcp|HOME=$WORK|aso-mcp"
    "mcp-tcmb-exchange|HOME=$WORK|mcp-tcmb-exchange"
    "torna-mcp|HOME=$WORK TORNA_TOKEN=dummy TORNA_URL=http://127.0.0.1:1|torna-mcp"
    "overleaf-mcp-server|HOME=$WORK XDG_CONFIG_HOME=$WORK/config OVERLEAF_TOKEN=dummy|overleaf-mcp serve"
    "surreal-mcp|HOME=$WORK SURREAL_URL=ws://127.0.0.1:1/rpc SURREAL_USER=root SURREAL_PASSWORD=dummy SURREAL_NAMESPACE=test SURREAL_DATABASE=test|surreal-mcp"
  )
fi

if [ "$SET" = 78 ]; then  # held_out_78 (issue 33, built alongside held_out_75, held_out_76 and held_out_77): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@nexus2520/bitbucket-mcp-server@3.0.0"  # Bitbucket Cloud and Server (pull requests, code review), community; a dummy token, its base URL at 127.0.0.1:1
  )
  PYPI=(
    "wallabag-mcp==0.1.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp, it asks mcp>=1.2.0); wallabag read-it-later, community; dummy credentials, its base URL at 127.0.0.1:1
    "wikijs-mcp==1.1.0 mcp==1.30.0"  # written for the 1.x SDK (it pins mcp>=1.0,<2); Wiki.js over GraphQL, community; a dummy API key, its URL at 127.0.0.1:1
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "bitbucket-mcp-server|HOME=$WORK BITBUCKET_BASE_URL=http://127.0.0.1:1 BITBUCKET_USERNAME=dummy BITBUCKET_TOKEN=dummy|bitbucket-mcp-server"
    "wallabag-mcp|HOME=$WORK WALLABAG_BASE_URL=http://127.0.0.1:1 WALLABAG_CLIENT_ID=dummy WALLABAG_CLIENT_SECRET=dummy WALLABAG_USERNAME=dummy WALLABAG_PASSWORD=dummy|wallabag-mcp"
    "wikijs-mcp|HOME=$WORK WIKIJS_URL=http://127.0.0.1:1 WIKIJS_API_KEY=dummy|wikijs-mcp"
  )
fi

if [ "$SET" = 79 ]; then  # held_out_79 (issue 33, built alongside held_out_80, held_out_81 and held_out_82): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@chkp/management-logs-mcp@1.4.10"  # Check Point's own, firewall management logs; a dummy API key, its management host at 127.0.0.1:1; its descriptions carry today's date, so it runs with the clock fixed (fixed-date.cjs)
    "@alvincrave/gtasks-mcp@0.2.0"  # Google Tasks, community; dummy OAuth client and refresh token in its environment
    "@accesslint/mcp@0.11.1"  # AccessLint's own, WCAG accessibility audits of HTML and pages; no key, no browser downloaded (--ignore-scripts)
  )
  PYPI=(
    "zulipchat-mcp==0.7.6"  # written for FastMCP 4 (it asks fastmcp[tasks]>=4.0.4,<5, resolved by pip); Zulip chat, community; dummy credentials, its site at 127.0.0.1:1, core mode (its default)
    # kimai-mcp==2.20.1 mcp==2.3.0 (2.x SDK; Kimai time tracking): installed at first and left out: it asks its server for /version before listing
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "management-logs-mcp|HOME=$WORK TZ=UTC NODE_OPTIONS=--require=$WORK/fixed-date.cjs API_KEY=dummy MANAGEMENT_HOST=127.0.0.1 MANAGEMENT_PORT=1 TELEMETRY_DISABLED=true|management-logs-mcp"
    "gtasks-mcp|HOME=$WORK GOOGLE_CLIENT_ID=dummy.apps.googleusercontent.com GOOGLE_CLIENT_SECRET=dummy GOOGLE_REFRESH_TOKEN=dummy|gtasks-mcp"
    "accesslint-mcp|HOME=$WORK|accesslint-mcp"
    "zulipchat-mcp|HOME=$WORK ZULIP_EMAIL=dummy@example.com ZULIP_API_KEY=dummy ZULIP_SITE=http://127.0.0.1:1|zulipchat-mcp"
  )
fi

if [ "$SET" = 80 ]; then  # held_out_80 (issue 33, built alongside held_out_79, held_out_81 and held_out_82): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@danielsogl/lighthouse-mcp@2.0.1"  # Lighthouse web performance, accessibility and SEO audits, community; no key (Chrome is only started by a call)
    "mcp-ripgrep@0.4.0"  # ripgrep search over local files, community; no key (rg is only run by a call)
  )
  PYPI=(
    "mcp-netbox==0.1.0 fastmcp==4.0.3 mcp==2.3.0"  # written for FastMCP (it asks fastmcp>=2.0, mcp>=1.0; released 2026-10, on FastMCP 4 and the 2.x SDK); NetBox DCIM/IPAM, read-only, community; a dummy token, its URL at 127.0.0.1:1
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH.
  # mcp-netbox's own entry point serves only Streamable HTTP; its FastMCP object is run over stdio instead (the same tools).
  SERVERS=(
    "lighthouse-mcp|HOME=$WORK|lighthouse-mcp-server"
    "mcp-ripgrep|HOME=$WORK|mcp-ripgrep"
    "mcp-netbox|HOME=$WORK NETBOX_URL=http://127.0.0.1:1 NETBOX_TOKEN=dummy|$WORK/venv-mcp-netbox/bin/python -c 'from mcp_netbox.server import mcp; mcp.run()'"
  )
fi

if [ "$SET" = 82 ]; then  # held_out_82 (issue 33, built alongside held_out_79, held_out_80 and held_out_81): a new stick, PyPI, no rule tuned on it
  NPM=()  # its npm candidates left out (see the README's held_out_82 section)
  PYPI=(
    "clr-mikrotik-mcp==1.0.0 fastmcp==2.14.7"  # written for the standalone FastMCP 2 (it asks fastmcp>=2.14.0,<3); MikroTik RouterOS over its API and SSH, community; dummy credentials, no router reached
    "cronometer-mcp==2.4.0 mcp==2.3.0"  # written for the 2.x SDK (mcp.server.mcpserver, it asks mcp>=2.3.0,<3); Cronometer nutrition tracking, community; dummy credentials, no login before a call
    "book-metadata-mcp==0.2.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp, it asks mcp[cli]>=1.0.0); Google Books and Open Library book metadata, community; a dummy API key
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "clr-mikrotik-mcp|HOME=$WORK MIKROTIK_USERNAME=dummy MIKROTIK_PASSWORD=dummy|clr-mikrotik-mcp"
    "cronometer-mcp|HOME=$WORK CRONOMETER_USERNAME=dummy CRONOMETER_PASSWORD=dummy CRONOMETER_DATA_DIR=$WORK/cronometer|cronometer-mcp"
    "book-metadata-mcp|HOME=$WORK GOOGLE_BOOKS_API_KEY=dummy|book-metadata-mcp"
  )
fi

if [ "$SET" = 81 ]; then  # held_out_81 (issue 33, built alongside held_out_79, held_out_80 and held_out_82): a new stick, PyPI, no rule tuned on it
  NPM=()
  PYPI=(
    "mcp-shlink==0.1.6 mcp==1.30.0"  # written for the 1.x SDK (it asks mcp>=1.0.0); the Shlink URL shortener, community; a dummy API key, its base URL at 127.0.0.1:1
    "rocketchat-mcp==0.1.0 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp, it asks mcp[cli]>=1.12.3); Rocket.Chat messaging, community; a dummy token and user id, its URL at 127.0.0.1:1
    "shiori-mcp==0.1.0 mcp==1.30.0"  # written for the 1.x SDK (it asks mcp>=1.2.0); the Shiori bookmark manager, community; dummy credentials, its base URL at 127.0.0.1:1
    "rmc-memos-mcp==0.1.7 mcp==1.30.0"  # written for the 1.x SDK (mcp.server.fastmcp, it asks mcp>=1.3.0,<2.0.0); the Memos note-taking service, community; a dummy token, its URL at 127.0.0.1:1
    # mcp-server-grist 0.2.1 (FastMCP 2): left out, captured once but not kept: 54 tools, too many to label well
    # linkwarden-mcp 0.1.6 (FastMCP 3): left out, installed but not captured: its lifespan calls /api/v1/users/me before listing
    # mcp-pihole 0.2.1 (Pi-hole v6): left out, not installed: every release requires Python >= 3.14
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "mcp-shlink|HOME=$WORK SHLINK_BASE_URL=http://127.0.0.1:1 SHLINK_API_KEY=dummy|mcp-shlink"
    "rocketchat-mcp|HOME=$WORK ROCKETCHAT_SERVER_URL=http://127.0.0.1:1 ROCKETCHAT_AUTH_TOKEN=dummy ROCKETCHAT_USER_ID=dummy|rocketchat-mcp"
    "shiori-mcp|HOME=$WORK SHIORI_BASE_URL=http://127.0.0.1:1 SHIORI_USERNAME=dummy SHIORI_PASSWORD=dummy|shiori-mcp"
    "rmc-memos-mcp|HOME=$WORK MEMOS_URL=http://127.0.0.1:1 MEMOS_TOKEN=dummy|rmc-memos-mcp"
  )
fi

if [ "$SET" = 85 ]; then  # held_out_85 (issue 33, built alongside held_out_83, held_out_84 and held_out_86): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@ccusage/mcp@18.0.11"  # ccusage's own, Claude Code and Codex token usage and cost reports from local logs; no key (an empty Claude Code data folder in the capture folder: no logs)
  )
  PYPI=(
    "ghostfolio-mcp==1.8.1 fastmcp==4.2.3 mcp==2.3.0"  # written for FastMCP 4 (it asks fastmcp>=4.0.0,<5); the Ghostfolio wealth-management app, community; a dummy token, its URL at 127.0.0.1:1
    "nasa-exoplanet-mcp==0.1.0 mcp==1.30.0"  # written for the 1.x SDK (it asks mcp[cli]>=1.2.0,<2); NASA's Exoplanet Archive, community; no key
    "chuk-mcp-celestial==0.3.4 chuk-mcp-server==0.26.1"  # on its maker's own chuk-mcp-server (it asks >=0.17); moon phases, sun and moon times, eclipses, planets, community (chuk-ai); no key
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "ccusage-mcp|HOME=$WORK CLAUDE_CONFIG_DIR=$WORK/claude-config CODEX_HOME=$WORK/codex|ccusage-mcp"
    "ghostfolio-mcp|HOME=$WORK GHOSTFOLIO_URL=http://127.0.0.1:1 GHOSTFOLIO_TOKEN=dummy|ghostfolio-mcp"
    "nasa-exoplanet-mcp|HOME=$WORK|nasa-exoplanet-mcp"
    "chuk-mcp-celestial|HOME=$WORK|chuk-mcp-celestial"
  )
fi

if [ "$SET" = 86 ]; then  # held_out_86 (issue 33, built alongside held_out_83, held_out_84 and held_out_85): a new stick, npm and PyPI, no rule tuned on it
  NPM=(
    "@ng-primitives/mcp@0.110.2"  # the Angular Primitives library's own, its components' documentation and setup; no key
  )
  PYPI=(
    "temporal-mcp-server==1.12.0 mcp==2.3.0"  # written for the 2.x SDK's low-level server (it asks mcp>=2.0.0,<2.4.0); Temporal workflow orchestration, community; its host at 127.0.0.1:1, nothing reached before a call
    "wspr-mcp==0.5.0 fastmcp==4.2.3"  # written for FastMCP 4 (it asks fastmcp>=4.0,<5); WSPR amateur-radio beacon spots and propagation, community (qso-graph); no key, its mock mode on
    "stpt-mcp==0.3.7 mcp==2.3.0"  # written for the 2.x SDK (it asks mcp>=2.3.0,<3); Timisoara's STPT public transport, community; no key, its upstream URLs at 127.0.0.1:1
    "swedish-jobs-mcp==0.1.1 mcp==1.30.0"  # written for the 1.x SDK (it asks mcp[cli]>=1.2,<2); Swedish job ads from JobTech's open API, community; no key, its URLs at 127.0.0.1:1
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "ng-primitives-mcp|HOME=$WORK|ngp-mcp"
    "temporal-mcp-server|HOME=$WORK TEMPORAL_HOST=127.0.0.1:1|temporal-mcp-server"
    "wspr-mcp|HOME=$WORK WSPR_MCP_MOCK=1|wspr-mcp"
    "stpt-mcp|HOME=$WORK STPT_MCP_LIVE_URL=http://127.0.0.1:1 STPT_MCP_ALERTS_URL=http://127.0.0.1:1 STPT_MCP_VEHICLES_URL=http://127.0.0.1:1|stpt-mcp serve"
    "swedish-jobs-mcp|HOME=$WORK JOBTECH_SEARCH_URL=http://127.0.0.1:1 JOBTECH_STREAM_URL=http://127.0.0.1:1|swedish-jobs-mcp"
  )
fi

if [ "$SET" = 84 ]; then  # held_out_84 (issue 33, built alongside held_out_83, held_out_85 and held_out_86): a new stick, PyPI, no rule tuned on it
  NPM=()  # no npm server tried (see the README's held_out_84 section)
  PYPI=(
    "spaceweather-mcp==0.1.0 fastmcp==4.2.3 mcp==2.3.0"  # written for FastMCP (it asks fastmcp>=3.0, resolved by pip to 4.2.3); NOAA SWPC space weather, community; no key
    "swiss-transport-mcp==0.5.0 mcp==2.3.0"  # written for the 2.x SDK (it asks mcp[cli]>=2.0.0,<3); Swiss public transport (OJP journeys, departures, disruptions, fares), community; a dummy key, its CKAN URL at 127.0.0.1:1
    "coros-training-mcp==0.3.1 fastmcp==4.2.3 mcp==2.3.0"  # written for FastMCP (it asks fastmcp>=0.9, resolved by pip to 4.2.3); COROS training and workouts, community; no credentials, no login before a call
    # bacnet-mcp 0.4.0, rmc-garmin-mcp 0.1.0 and rogo-garmin-mcp: left out, not installed: they require Python >= 3.13, >= 3.12 and >= 3.12
    # plex-mcp-server 1.5.0: left out, probed once (63 tools, too many to label well); qidi-printer-mcp 1.0.8: left out, its FastMCP import fails on mcp 2
  )
  # captured with PYTHON and MCPTEST set to the interpreter that has mcptest: the venvs come first on the capture's PATH
  SERVERS=(
    "spaceweather-mcp|HOME=$WORK|spaceweather-mcp"
    "swiss-transport-mcp|HOME=$WORK TRANSPORT_API_KEY=dummy TRANSPORT_CKAN_URL=http://127.0.0.1:1|swiss-transport-mcp"
    "coros-training-mcp|HOME=$WORK|coros-mcp serve"
  )
fi

install() {
  mkdir -p "$WORK" && cd "$WORK" || exit 2
  [ -f package.json ] || echo '{"private": true}' > package.json
  [ ${#NPM[@]} -eq 0 ] || npm install --ignore-scripts --no-audit --no-fund "${NPM[@]}" || echo "npm install failed"
  for pkg in "${PYPI[@]}"; do  # one venv each: their pins conflict (mcp-server-qdrant pins an old fastmcp)
    dir="venv-${pkg%%=*}"
    [ -d "$dir" ] || "$PYTHON" -m venv "$dir"
    "$dir/bin/pip" install -q $pkg ||  # unquoted: an entry may add a pin ("pkg==1.0 mcp<2")
      echo "pip install $pkg failed"
  done
  for row in ${PIP_AFTER[@]+"${PIP_AFTER[@]}"}; do  # a pin that must replace a dependency's own (SET=15)
    "${row%%|*}/bin/pip" install -q ${row#*|} || echo "pip install ${row#*|} into ${row%%|*} failed"
  done
}

capture() {
  cd "$WORK" || exit 2
  mkdir -p excel lean  # a workbook folder (SET=2), an empty Lean project and a cclsp config (SET=10)
  [ -f lean/lean-toolchain ] || { echo "leanprover/lean4:v4.20.0" > lean/lean-toolchain; touch lean/lakefile.toml; }
  [ -f cclsp.json ] || echo '{"servers": [{"extensions": ["py"], "command": ["pylsp"]}]}' > cclsp.json
  [ -f panda.config.mjs ] || echo 'export default {}' > panda.config.mjs  # an empty Panda CSS config (SET=19)
  [ -f gcal-oauth.json ] || echo '{"installed": {"client_id": "dummy.apps.googleusercontent.com", "client_secret": "dummy", "redirect_uris": ["http://localhost"]}}' > gcal-oauth.json  # SET=11
  [ -f dummy-token.json ] || echo '{"access_token": "dummy", "refresh_token": "dummy"}' > dummy-token.json  # SET=22
  [ -f gsheets-token.json ] || echo '{"token": "dummy", "refresh_token": "dummy", "client_id": "dummy", "client_secret": "dummy", "expiry": "2099-01-01T00:00:00Z"}' > gsheets-token.json  # SET=25
  [ -f aws-config ] || printf '[default]\nregion = us-east-1\n' > aws-config  # a dummy default profile (SET=30)
  [ -f disk-health.yaml ] || echo '{}' > disk-health.yaml  # an empty disk-health-mcp config (SET=41)
  mkdir -p claude-config/projects  # an empty Claude Code data folder, which ccusage-mcp asks for at start (SET=85)
  # a clock fixed at 2026-11-28 12:00 UTC for Node servers that write today's date into their descriptions (SET=79)
  [ -f fixed-date.cjs ] || echo 'const T = Date.UTC(2026, 10, 28, 12); const D = Date; globalThis.Date = class extends D { constructor(...a) { super(...(a.length ? a : [T])); } static now() { return T; } };' > fixed-date.cjs
  for row in "${SERVERS[@]}"; do
    IFS='|' read -r name envs cmd <<<"$row"
    if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
    out="$ROOT/tests/lint/real/$name.json"
    echo "== $name"
    PATH="$WORK/node_modules/.bin:$(printf '%s:' "$WORK"/venv-*/bin)$PATH" \
      timeout 60 $MCPTEST tools --command "env $envs $cmd" --output "$out" || echo "capture $name failed"
  done
}

case "${1:-}" in
  install) install ;;
  capture) shift; capture "$@" ;;
  *) echo "usage: $0 install|capture" >&2; exit 2 ;;
esac
