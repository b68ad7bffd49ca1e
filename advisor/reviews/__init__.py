"""Review of recorded games and their score sheets."""
