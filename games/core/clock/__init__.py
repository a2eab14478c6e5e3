"""The table clock (deadlines, timeouts, absences, the computer seats' turns) and the process
pool the computer seats think in."""
