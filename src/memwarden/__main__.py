from memwarden.cli import main

main()
