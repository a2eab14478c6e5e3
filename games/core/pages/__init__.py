"""The pages of the live core: the lobby, the table page, private tables and challenges, the
rules; their forms and URLs."""
