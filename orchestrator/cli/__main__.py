from orchestrator.cli.entry import main

main()
