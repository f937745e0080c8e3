"""The memo tables: computed once, bounded as declared, emptied by ``clear_all``."""

from __future__ import annotations

from mini_iree.compiler.ir import memo
from mini_iree.compiler.ir.memo import ClassMemo, IdentityMemo, Memo


def test_class_memo_computes_once_per_class() -> None:
    table: ClassMemo[str] = ClassMemo("test.class")
    calls: list[type] = []

    def name(cls: type) -> str:
        calls.append(cls)
        return cls.__name__

    assert [table.lookup(c, name) for c in (int, str, int)] == ["int", "str", "int"]
    assert calls == [int, str]


def test_memo_passes_arguments_to_compute() -> None:
    table: Memo[tuple[int, int], int] = Memo("test.args", limit=None)
    calls: list[tuple[int, int]] = []

    def add(a: int, b: int) -> int:
        calls.append((a, b))
        return a + b

    assert table.lookup((1, 2), add, 1, 2) == 3
    assert table.lookup((1, 2), add, 1, 2) == 3
    assert table.lookup("no arguments", lambda: 7) == 7
    assert calls == [(1, 2)]


def test_memo_starts_again_at_its_limit() -> None:
    table: Memo[int, int] = Memo("test.limit", limit=2)
    for key in range(3):
        table.lookup(key, lambda k=key: k)
    assert len(table) == 1  # two entries, then cleared for the third


def test_identity_memo_keeps_its_key_alive() -> None:
    table: IdentityMemo[object, int] = IdentityMemo("test.identity")
    key = object()
    assert table.lookup(key, lambda o: 1) == 1
    assert table.lookup(key, lambda o: 2) == 1
    assert table.lookup(object(), lambda o: 3) == 3


def test_clear_all_empties_every_table() -> None:
    table: ClassMemo[int] = ClassMemo("test.clear")
    table.lookup(int, lambda c: 1)
    assert table in memo.all_memos()
    memo.clear_all()
    assert len(table) == 0


def test_the_compiler_tables_are_memo_tables() -> None:
    import mini_iree.compiler.analysis.clonable_into_dispatch  # noqa: F401
    import mini_iree.compiler.ir.dynamic_dims  # noqa: F401
    import mini_iree.compiler.ir.queries  # noqa: F401
    import mini_iree.compiler.resolvers.gpu  # noqa: F401
    import mini_iree.passes.canonicalize  # noqa: F401

    names = {table.name for table in memo.all_memos()}
    assert {
        "queries.op_has_trait",
        "queries.effect_free_by_class",
        "dynamic_dims.size_source",
        "clonable_into_dispatch.clone_kind",
        "canonicalize.patterns",
        "resolvers.rocm_target",
    } <= names
