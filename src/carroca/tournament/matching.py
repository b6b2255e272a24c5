"""Minimum-cost perfect matching with lexicographic costs, on networkx's blossom algorithm.

A pairing has several criteria, each strictly more important than the next (no second bye,
then no repeat, then …). Each edge's cost is a tuple of non-negative integers, one per
criterion; `min_cost_matching` turns the tuples into one integer per edge in a mixed radix wide
enough that no sum of lower criteria outweighs one unit of a higher one, and asks networkx for
the maximum-weight matching of maximum cardinality. All-integer weights keep the algorithm in
exact integer arithmetic (Python's integers do not overflow).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

Cost = tuple[int, ...]
Edge = tuple[Hashable, Hashable, Cost]


class NoPerfectMatching(RuntimeError):
    """The edges given cannot pair every node: a bug in the caller, never a player's doing."""


def weights(edges: Sequence[Edge]) -> list[int]:
    """One positive integer per edge: higher for lower cost, lexicographically exact."""
    if not edges:
        return []
    width = len(edges[0][2])
    pairs_max = len({u for u, _, _ in edges} | {v for _, v, _ in edges}) // 2 + 1
    units = [0] * width
    below = 0  # the most that every criterion below the current one can add up to
    for k in range(width - 1, -1, -1):
        units[k] = below + 1
        below += units[k] * pairs_max * max(cost[k] for _, _, cost in edges)
    top = below + 1
    return [top - sum(u * c for u, c in zip(units, cost, strict=True)) for _, _, cost in edges]


def min_cost_matching(nodes: Sequence[Hashable], edges: Sequence[Edge]) -> list[tuple[Hashable,
                                                                                      Hashable]]:
    """The perfect matching of least cost, as (u, v) pairs in the order of `nodes`.

    Nodes and edges are added in the order given, so the answer is a function of the input.
    Raises NoPerfectMatching when some node is left alone.
    """
    # Imported here: networkx takes a tenth of a second to import, and most of the `carroca`
    # command never pairs anyone.
    import networkx as nx
    from networkx.algorithms.matching import max_weight_matching

    graph: nx.Graph[Hashable] = nx.Graph()
    graph.add_nodes_from(nodes)
    for (u, v, _), w in zip(edges, weights(edges), strict=True):
        graph.add_edge(u, v, weight=w)
    matched = max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matched) != len(nodes):
        raise NoPerfectMatching(f"{len(nodes) - 2 * len(matched)} of {len(nodes)} nodes unpaired")
    place = {node: i for i, node in enumerate(nodes)}
    pairs = [(u, v) if place[u] < place[v] else (v, u) for u, v in matched]
    return sorted(pairs, key=lambda p: place[p[0]])
