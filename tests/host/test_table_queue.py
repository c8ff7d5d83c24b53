"""The table's queue (table/queue.py): the link's reports and the referee's inputs reach the
match one at a time, in the order they came, on one thread; a caller gets its answer or its
error; work handed in by the queue's own thread runs at once (no deadlock)."""

from __future__ import annotations

import threading
import time

import pytest

from futmesa.table.queue import TableQueue


def test_work_from_many_threads_runs_one_at_a_time_on_one_thread() -> None:
    q = TableQueue("t1")
    running, most, threads, order = [0], [0], set(), []
    lock = threading.Lock()

    def work(n: int) -> int:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        threads.add(threading.current_thread().name)
        time.sleep(0.001)
        order.append(n)
        with lock:
            running[0] -= 1
        return n * 2

    answers: dict[int, int] = {}
    callers = [threading.Thread(target=lambda n=n: answers.__setitem__(n, q.run(work, n)))
               for n in range(20)]
    for c in callers:
        c.start()
    for c in callers:
        c.join(10)
    assert answers == {n: n * 2 for n in range(20)}
    assert most == [1] and threads == {"table-t1"} and sorted(order) == list(range(20))
    q.close()


def test_an_error_goes_back_to_its_caller_and_the_queue_goes_on() -> None:
    q = TableQueue("t2")

    def refuse() -> None:
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        q.run(refuse)
    assert q.run(lambda: 7) == 7
    q.close()


def test_work_handed_in_by_the_queue_itself_runs_at_once_and_after_close_inline() -> None:
    q = TableQueue("t3")
    assert q.run(lambda: q.run(lambda: "inner") + " outer") == "inner outer"
    q.close()
    assert q.run(lambda: threading.current_thread() is threading.main_thread())
