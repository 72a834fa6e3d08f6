"""Least-squares fitting of the weights, phase by phase: ridge regression on sparse
one-hot pattern features, solved by conjugate gradients with a diagonal preconditioner
(numpy only: the matrix is never built; a product with it is a gather and a bincount)."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from termgames.reversi.engine.patterns import PHASE_SIZE, PHASES, Weights, phase_of
from tools.reversi_train.dataset import NO_SCORE, Positions
from tools.reversi_train.features import canonical, indices

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Settings:
    """How to fit: the ridge penalty (in positions' worth of pull towards zero), the
    conjugate-gradient iterations, and whether perfect-play scores replace results."""

    ridge: float = 3.0
    iterations: int = 60
    use_perfect: bool = True


def targets(positions: Positions, use_perfect: bool = True) -> F64:
    """What to fit, in discs: the perfect-play difference where the record has one (and
    ``use_perfect``), else the final difference."""
    result = positions.target.astype(np.float64)
    if use_perfect:
        known = positions.perfect != NO_SCORE
        result[known] = positions.perfect[known]
    return result


def solve(features: npt.NDArray[np.int32], values: F64, ridge: float, iterations: int,
          size: int = PHASE_SIZE) -> F64:
    """The ``size`` parameters minimising the squared error of the rows' sums (each row of
    ``features`` lists the parameters it adds) plus ``ridge`` times their squares."""
    flat = features.ravel()
    width = features.shape[1]

    def times(parameters: F64) -> F64:  # (X^T X + ridge I) parameters
        predicted = parameters[features].sum(axis=1)
        return np.bincount(flat, weights=np.repeat(predicted, width),
                           minlength=size) + ridge * parameters

    diagonal = np.bincount(flat, minlength=size).astype(np.float64) + ridge
    right = np.bincount(flat, weights=np.repeat(values, width), minlength=size)
    parameters = np.zeros(size)
    residual = right.copy()
    direction = residual / diagonal
    fitted = start = residual @ direction
    for _ in range(iterations):
        if fitted <= 1e-24 * start:
            break  # solved: another step would divide nothing by nothing
        product = times(direction)
        step = fitted / (direction @ product)
        parameters += step * direction
        residual -= step * product
        preconditioned = residual / diagonal
        new = residual @ preconditioned
        direction = preconditioned + (new / fitted) * direction
        fitted = new
    return parameters


def fit(positions: Positions, settings: Settings = Settings(),
        report: Callable[[str], None] = print) -> Weights:
    """Weights for every phase, fitted to ``positions``; a phase with no position is
    all zeros."""
    tied = canonical()
    values = targets(positions, settings.use_perfect)
    discs = 64 - positions.empties.astype(np.int64)
    phase = np.array([phase_of(int(d)) for d in range(65)])[discs]
    tables = []
    for number in range(PHASES):
        chosen = phase == number
        count = int(chosen.sum())
        parameters = np.zeros(PHASE_SIZE)
        if count:
            features = tied[indices(positions.own[chosen], positions.opp[chosen])]
            parameters = solve(features.astype(np.int32), values[chosen], settings.ridge,
                               settings.iterations)
            predicted = parameters[features].sum(axis=1)
            error = np.abs(predicted - values[chosen]).mean()
            report(f"phase {number:2}: {count:9,} positions, mean |error| {error:5.2f} discs")
        centi = np.clip(np.rint(parameters[tied] * 100), -32767, 32767).astype(np.int16)
        tables.append(array("h", centi.tobytes()))
    return Weights(tuple(tables))
