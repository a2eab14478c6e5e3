"""The state of the tables: what a process keeps of them, the event log read back, the reads of
a socket and a page, who is up, the messages sent and their broadcast."""
