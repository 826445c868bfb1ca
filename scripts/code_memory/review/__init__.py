"""The review queue: proposals that wait for a person before they land in memory."""
