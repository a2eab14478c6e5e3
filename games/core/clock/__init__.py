"""The table clock (deadlines, timeouts, the computer seats' turns) and the process pool the computer seats think in."""
