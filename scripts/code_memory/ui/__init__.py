"""The memory browser (``code-memory ui``, docs/browser.md § Memory browser): a local web app over every
store — search, timeline, projects, effectiveness, knowledge map and the review queue."""
