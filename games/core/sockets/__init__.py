"""The websockets: the base every socket is built on, who a socket is, the process's beats, the
table, lobby and notice sockets, their routes and their database threads."""
