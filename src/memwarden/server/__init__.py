"""The servers: `memwarden server` (the Language Server Protocol, for editors) and `memwarden mcp` (the Model
Context Protocol, for agents). A thin layer over the engine, like cli/; pygls and the mcp SDK are imported only here."""
