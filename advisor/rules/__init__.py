"""The rules core: editions, positions, board text, actions, scoring, setup, the game state, its encoding for the kernels, one roll, the dice and one turn."""
