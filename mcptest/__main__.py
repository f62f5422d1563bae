from mcptest.cli import main

main()
