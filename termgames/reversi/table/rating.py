"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), one game a rating
period, as online game servers rate: a rating, its deviation (how sure it is) and its
volatility, updated after each rated game from the opponent's rating and the result.

The constants: a new player starts at 1500 with a deviation of
350 and a volatility of 0.06; the system constant tau is 0.5, and the volatility is found
to within 1e-6.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["NEW", "TAU", "Rating", "rated"]

SCALE = 173.7178
"""Glicko-2's ratio between the Glicko scale (1500 and its points) and its own."""
TAU = 0.5
"""How much the volatility may change in one period: small for games of skill."""
CONVERGENCE = 1e-6


@dataclass(frozen=True)
class Rating:
    """A player's rating on the Glicko scale, its deviation and its volatility."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    @property
    def shown(self) -> str:
        """As a player reads it: '1623', with '?' while it is still uncertain."""
        sure = "" if self.deviation < 110 else "?"
        return f"{round(self.rating)}{sure}"


NEW = Rating()
"""A player who has never been rated."""


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rated(player: Rating, games: list[tuple[Rating, float]]) -> Rating:
    """``player``'s rating after one period of ``games`` (each the opponent's rating
    before it, and the player's score: 1 a win, 0.5 a draw, 0 a loss); with no game, only
    the deviation grows."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        grown = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(grown * SCALE, NEW.deviation), sigma)
    outcomes = []
    for opponent, score in games:
        mu_j, phi_j = (opponent.rating - 1500.0) / SCALE, opponent.deviation / SCALE
        outcomes.append((_g(phi_j), _expected(mu, mu_j, phi_j), score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in outcomes)
    improvement = sum(g * (score - e) for g, e, score in outcomes)
    delta = v * improvement
    sigma = _volatility(delta, phi, v, sigma)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(1500.0 + SCALE * mu_new, min(SCALE * phi_new, NEW.deviation), sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float) -> float:
    """The new volatility: the root of Glickman's f by the Illinois method (step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (TAU * TAU)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        high = a - k * TAU
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)
