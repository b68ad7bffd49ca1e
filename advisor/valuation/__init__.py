"""The value of every legal action: the engine, overall bets, portfolios of held bets, the standing model and the explanations."""
