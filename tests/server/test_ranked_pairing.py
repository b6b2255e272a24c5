"""The ranked queue's grouping: accounts linked by an address or a device are never opponents;
in duplas they may be partners."""

from __future__ import annotations

from carroca.server.storage.links import pick_group


def test_linked_accounts_never_face_each_other() -> None:
    linked = {frozenset((1, 2))}
    assert pick_group([1, 2], 2, int, linked) is None
    assert sorted(pick_group([1, 2, 3], 2, int, linked) or []) == [1, 3]
    assert pick_group([1, 3], 2, int, set()) is not None


def test_in_duplas_linked_accounts_are_partners_or_wait() -> None:
    for _ in range(50):  # the seating is random among the allowed ones
        seated = pick_group([1, 2, 3, 4], 4, int, {frozenset((1, 2)), frozenset((3, 4))})
        assert seated is not None
        assert seated.index(1) % 2 == seated.index(2) % 2
        assert seated.index(3) % 2 == seated.index(4) % 2
    # Three accounts of one person cannot sit on one team of two: the third waits.
    three = {frozenset(p) for p in ((1, 2), (1, 3), (2, 3))}
    assert pick_group([1, 2, 3, 4], 4, int, three) is None
    assert sorted(pick_group([1, 2, 3, 4, 5], 4, int, three) or []) == [1, 2, 4, 5]
