"""`wonderforge serve`: games played in the browser, each person on their own device, bots at the
other seats. `tables` holds the games being played and keeps each one's log in a data folder (a
restarted server goes on with them); `seats` makes what one seat's page is sent, from that seat's
observation alone; `app` is the web application (pages, the games' API, a WebSocket per seat) and
the server; `static/` holds the pages and their script.
Imports the engine, `tools.common` and the web stack (starlette, uvicorn: the `serve` extra). The
texts of actions come from the terminal's screens, given by the command line (`tools.cli`), which
sits above.
"""
