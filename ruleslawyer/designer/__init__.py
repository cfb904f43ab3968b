"""The designer's workflow: checking games and gathering findings, baselines,
what an edit changes (``diff``), a rule point in words (``explain``)."""
