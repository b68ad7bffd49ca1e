"""The value of every legal action.

Lowest first: ``memo`` (the process-wide memo, seeds drawn from the board),
``legs`` (the leg's outcomes), ``context`` (``Valuation``, the figures shared
by one state), ``tiles`` (the outcomes with each tile placement), ``onepass``
(every EV and denial from those tables), ``fast`` (the bots' ``fast_values``)
and ``engine`` (``best_moves``, ``evaluate``: the advice); beside them the
overall bets (``overall``), portfolios of held bets (``portfolio``), the
standing model (``standing``), the chance of winning (``winchance``) and the
explanations (``explain``)."""
