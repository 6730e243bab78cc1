from memwarden.cli.main import main

main()
