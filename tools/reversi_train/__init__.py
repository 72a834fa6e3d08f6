"""The Reversi evaluation's trainer: game records in, pattern weights out.

``python -m tools.reversi_train.train`` fits the weights file that
``termgames.reversi.engine.patterns`` reads; ``check`` measures a weights file on held-out
games and ``speed`` times the evaluation. numpy is needed here only (the ``train`` extra).
"""
