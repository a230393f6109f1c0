"""What the whole suite shares: every test reachable by an id of its own."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import settings

# Speed is measured by the benchmarks under bench/, not by the property tests: on a
# loaded machine an example may take longer than Hypothesis's default 200 ms.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Schemathesis names a test after its operation ("test_x[GET /api/...]"), but under
    # pytest 9 its id lacks that part, so all of a schema's tests share one id: then
    # `--dist loadgroup` (one queue entry per id) would run one of them in place of all.
    for item in items:
        original = getattr(item, "originalname", None)
        node_id = getattr(item, "_id", None)
        if (
            original
            and node_id is not None
            and node_id.params is None
            and item.name.startswith(f"{original}[")
            and item.name.endswith("]")
        ):
            item._id = node_id.with_params(item.name[len(original) + 1 : -1])
    shared = [nodeid for nodeid, count in Counter(i.nodeid for i in items).items() if count > 1]
    if shared:
        raise pytest.UsageError(f"tests that share an id (some would not run): {shared[:5]}")
