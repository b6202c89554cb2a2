"""The mutation tester's own parts (tests/mutants.py), each against a hand-computed case;
none of these runs a mutant."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

import mutants
import pytest

REPO = Path(__file__).resolve().parents[1]

SOURCE = "def f(x, y):\n    return x + y * 2\n"


def test_the_mutants_of_a_hand_written_function_are_mutmuts_three():
    found, skipped = mutants.mutants_of("m.py", SOURCE)
    # by hand: mutmut's operators change `+` to `-`, `*` to `/` and the number 2 to 3
    assert {(m.line, m.before, m.after) for m in found} == {
        (2, "    return x + y * 2", "    return x - y * 2"),
        (2, "    return x + y * 2", "    return x + y / 2"),
        (2, "    return x + y * 2", "    return x + y * 3"),
    }
    assert skipped == []
    for m in found:  # each source is the module with that one line changed
        assert m.source == SOURCE.replace(m.before, m.after)


def test_mutants_of_annotations_alone_are_left_out_where_annotations_are_never_evaluated():
    # by hand: mutmut makes a variable's annotation's `|` `&`, its value 1 2 and None (and
    # leaves an argument's and a return's annotation alone); under the future import the
    # annotation's mutant is left out
    body = textwrap.dedent("""\
        def f(x: int | None) -> int | None:
            y: int | None = 1
            return y
        """)
    future = "from __future__ import annotations\n\n" + body
    every = sorted(m.after.strip() for m in mutants.mutants_of("m.py", body)[0])
    assert every == ["y: int & None = 1", "y: int | None = 2", "y: int | None = None"]
    kept = sorted(m.after.strip() for m in mutants.mutants_of("m.py", future)[0])
    assert kept == every[1:]
    assert mutants.annotations_only(future, future.replace("= 1", "= 2")) is False


def test_a_module_parso_cannot_read_is_mutated_statement_by_statement():
    # parenthesised context managers (Python 3.10) are beyond mutmut's parser
    source = textwrap.dedent("""\
        def g(a):
            with (
                open(a) as f,
                open(a) as h,
            ):
                return f.read() + h.read()


        def f(x, y):
            return x + y * 2
        """)
    found, skipped = mutants.mutants_of("m.py", source)
    assert skipped == [(1, 6)]
    assert sorted(m.after.strip() for m in found) == [
        "return x + y * 3", "return x + y / 2", "return x - y * 2"]  # fmt: skip
    assert {m.line for m in found} == {10}
    for m in found:
        compile(m.source, "m.py", "exec")  # the whole module still parses


def test_mutant_ids_name_the_change_not_its_line_number():
    found, _ = mutants.mutants_of("m.py", SOURCE)
    shifted, _ = mutants.mutants_of("m.py", "import os\n\n" + SOURCE)
    assert mutants.mutant_ids(found) == mutants.mutant_ids(shifted)
    assert len(set(mutants.mutant_ids(found))) == 3
    # the same change on two identical lines: two ids
    twice, _ = mutants.mutants_of("m.py", "a = 1\nb = [\n    1\n]\nc = [\n    1\n]\n")
    ones = [i for i, m in zip(mutants.mutant_ids(twice), twice, strict=True)
            if m.before.strip() == "1"]  # fmt: skip
    assert len(ones) == 2 and ones[0] != ones[1]
    # and on two lines that differ only in their indentation
    source = "def f(x):\n    if x:\n        return 1\n    return 1\n"
    indented, _ = mutants.mutants_of("m.py", source)
    ones = [i for i, m in zip(mutants.mutant_ids(indented), indented, strict=True)
            if m.after.strip() == "return 2"]  # fmt: skip
    assert len(ones) == 2 and ones[0] != ones[1]
    # and another module's identical change is another mutant
    other, _ = mutants.mutants_of("n.py", SOURCE)
    assert not set(mutants.mutant_ids(other)) & set(mutants.mutant_ids(found))


def test_the_cache_key_changes_with_everything_a_result_depends_on():
    base = ("src", {"tests/a.py": "A", "tests/b.py": "B"}, "conf", {"timeout": 60})
    key = mutants.cache_key(*base)
    assert key == mutants.cache_key("src", {"tests/b.py": "B", "tests/a.py": "A"}, "conf",
                                    {"timeout": 60})  # fmt: skip
    changed = [
        ("src2", base[1], "conf", base[3]),  # the module
        ("src", {"tests/a.py": "A", "tests/b.py": "B2"}, "conf", base[3]),  # a test file
        ("src", {"tests/a.py": "A"}, "conf", base[3]),  # a test file fewer
        ("src", {"tests/a.py": "A", "tests/c.py": "B"}, "conf", base[3]),  # another file
        ("src", base[1], "conf2", base[3]),  # conftest.py
        ("src", base[1], "conf", {"timeout": 30}),  # the options
        # the parts' boundaries count: not just their concatenation
        ("sr", {"tests/a.py": "A", "tests/b.py": "B"}, "cconf", base[3]),
    ]
    keys = {mutants.cache_key(*c) for c in changed}
    assert len(keys) == len(changed) and key not in keys


def _result(status: str, before: str, after: str, line: int = 1) -> dict:
    return {"status": status, "before": before, "after": after, "line": line}


def test_a_listed_survivor_is_equivalent_and_a_listed_absent_mutant_is_stale():
    results = {
        "a": _result("survived", "    x = 1", "    x = 2"),
        "b": _result("survived", "    y = 1", "    y = 2"),
        "c": _result("killed", "    z = 1", "    z = 2"),
    }
    equivalents = [
        {"module": "m.py", "before": "x = 1", "after": "x = 2  ", "reason": "r1"},
        {"module": "m.py", "before": "z = 1", "after": "z = 2", "reason": "r2"},
        {"module": "m.py", "before": "w = 1", "after": "w = 2", "reason": "r3"},
        {"module": "n.py", "before": "y = 1", "after": "y = 2", "reason": "r4"},
    ]
    out, stale = mutants.classify("m.py", results, equivalents)
    assert out["a"]["status"] == "equivalent" and out["a"]["reason"] == "r1"
    assert out["b"]["status"] == "survived"  # listed for another module only
    assert out["c"]["status"] == "killed"  # a killed mutant stays killed, listed or not
    assert [e["reason"] for e in stale] == ["r3"]
    c = mutants.counts(out)
    assert c == {"killed": 1, "survived": 1, "equivalent": 1, "timeout": 0, "total": 3}


def test_the_score_is_detected_over_not_equivalent():
    c = {"killed": 8, "survived": 2, "equivalent": 1, "timeout": 1, "total": 12}
    assert mutants.score(c) == pytest.approx(9 / 11)
    assert mutants.score({**c, "killed": 0, "timeout": 0, "survived": 0, "equivalent": 12}) is None


def test_the_table_reads_back_what_it_wrote():
    c = {"killed": 8, "survived": 2, "equivalent": 1, "timeout": 1, "total": 12}
    text = "\n".join(["before", mutants.BEGIN, mutants.HEADER, "|---|",
                      mutants.table_row("a.py", c, "abc"), mutants.table_row("b.py", None, ""),
                      mutants.END, "after"])  # fmt: skip
    rows = mutants.parse_table(text)
    assert rows["b.py"] is None
    assert {k: rows["a.py"][k] for k in c} == c
    assert rows["a.py"]["score"] == pytest.approx(round(9 / 11, 3))
    replaced = mutants.replace_table(text, "NEW")
    assert replaced == f"before\n{mutants.BEGIN}\nNEW\n{mutants.END}\nafter"


def test_the_docs_score_table_is_the_configured_modules_and_adds_up():
    rows = mutants.parse_table((REPO / "docs/contributing/tests.md").read_text())
    assert set(rows) == set(mutants.load_config()["modules"])
    for module, row in rows.items():
        if row is None:
            continue
        parts = row["killed"] + row["survived"] + row["equivalent"] + row["timeout"]
        assert parts == row["total"], module
        detected = (row["killed"] + row["timeout"]) / (row["total"] - row["equivalent"])
        assert row["score"] == pytest.approx(detected, abs=5e-4), module


def test_every_equivalent_names_a_configured_module_and_a_reason():
    modules = set(mutants.load_config()["modules"])
    for e in mutants.load_equivalents():
        assert e["module"] in modules and e["reason"].strip() and e["before"] != e["after"]


def test_the_tests_a_mutant_runs_first_are_those_that_run_its_lines():
    # line 4 is a def: run at import, and (its call event) by the tests that call it
    coverage = {"": [1, 2, 4], "t::a": [4, 5, 6], "t::b": [6, 7], "t::c": []}
    assert mutants.tests_for(range(5, 6), coverage) == ["t::a"]
    assert mutants.tests_for(range(6, 8), coverage) == ["t::a", "t::b"]
    assert mutants.tests_for(range(2, 3), coverage) is None  # runs at import: every test
    assert mutants.tests_for(range(4, 5), coverage) is None  # a default value, say
    assert mutants.tests_for(range(9, 10), coverage) is None  # seen by none: every test


def test_the_tracer_records_the_lines_each_test_runs(tmp_path):
    path = tmp_path / "traced.py"
    path.write_text("def f(x):\n    if x:\n        return 1\n    return 2\n")
    spec = importlib.util.spec_from_file_location("traced", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tracer = mutants._LineTracer(str(path), str(tmp_path / "out.json"))
    previous = sys.gettrace()
    tracer.start()
    try:
        tracer.current = "t::yes"
        module.f(True)
        tracer.current = "t::no"
        module.f(False)
    finally:
        sys.settrace(previous)
    # by hand: the call event is the def line; then the lines each branch runs
    assert tracer.lines == {"t::yes": {1, 2, 3}, "t::no": {1, 2, 4}}


def test_a_test_named_by_node_id_keys_on_its_file(tmp_path):
    (tmp_path / "src/learnability").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "src/learnability/m.py").write_text("x = 1\n")
    (tmp_path / "tests/conftest.py").write_text("")
    (tmp_path / "tests/test_m.py").write_text("def test_a(): pass\n")
    named = ["tests/test_m.py::test_a"]
    key = mutants.module_key(tmp_path, "m.py", named, {})
    assert key == mutants.cache_key("x = 1\n", {named[0]: "def test_a(): pass\n"}, "", {})
    (tmp_path / "tests/test_m.py").write_text("def test_a(): assert 0\n")
    assert mutants.module_key(tmp_path, "m.py", named, {}) != key
    # a shared test module (the references the tests compare with) is in every key
    key = mutants.module_key(tmp_path, "m.py", named, {})
    (tmp_path / "tests/references.py").write_text("REFERENCE = 1\n")
    with_reference = mutants.module_key(tmp_path, "m.py", named, {})
    (tmp_path / "tests/references.py").write_text("REFERENCE = 2\n")
    assert len({key, with_reference, mutants.module_key(tmp_path, "m.py", named, {})}) == 3


def _toy_repo(tmp_path: Path, monkeypatch) -> None:
    """A repository of one module (SOURCE) and one empty test file, as the tool's REPO."""
    monkeypatch.setattr(mutants, "WORK", tmp_path / "work")
    monkeypatch.setattr(mutants, "REPO", tmp_path)
    (tmp_path / "src/learnability").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "src/learnability/m.py").write_text(SOURCE)
    (tmp_path / "tests/conftest.py").write_text("")
    (tmp_path / "tests/test_m.py").write_text("")


def test_the_report_shows_each_survivor_equivalent_and_stale_entry(tmp_path, monkeypatch):
    _toy_repo(tmp_path, monkeypatch)
    config = {"modules": {"m.py": {"tests": ["tests/test_m.py"]}, "n.py": {"tests": ["x"]}}}
    results = mutants.Results("m.py")
    results.reset(mutants.module_key(tmp_path, "m.py", ["tests/test_m.py"], {}),
                  commit="abc", tests=["tests/test_m.py"], options={})  # fmt: skip
    results.data.update(mutants=4, finished=False, baseline_s=1.5)
    results.data["results"] = {
        "a": _result("survived", "    return x + y * 2", "    return x - y * 2", 2),
        "b": _result("survived", "    return x + y * 2", "    return x + y * 3", 2),
        "c": _result("killed", "    return x + y * 2", "    return x + y / 2", 2),
    }
    results.save()
    equivalents = [
        {"module": "m.py", "before": "return x + y * 2", "after": "return x + y * 3",
         "reason": "BECAUSE"},
        {"module": "m.py", "before": "gone = 1", "after": "gone = 2", "reason": "OLD"},
    ]  # fmt: skip
    report, table = mutants.build_report(config, equivalents)
    rows = mutants.parse_table(f"{mutants.BEGIN}\n{table}\n{mutants.END}")
    assert rows["n.py"] is None  # never run
    assert {k: rows["m.py"][k] for k in ("killed", "survived", "equivalent", "total")} == {
        "killed": 1, "survived": 1, "equivalent": 1, "total": 3}  # fmt: skip
    assert rows["m.py"]["score"] == pytest.approx(0.5)
    assert rows["m.py"]["run"] == "abc; 3 of 4 run"
    survivors = report.split("### Survivors (1)")[1].split("###")[0]
    assert "-     return x + y * 2\n+     return x - y * 2" in survivors
    assert "BECAUSE" in report.split("### Equivalent (1)")[1].split("###")[0]
    assert "+ gone = 2" in report.split("### Stale equivalents (1)")[1]
    # a test file changed since the run: the module's results are out of date
    (tmp_path / "tests/test_m.py").write_text("def test_new(): pass\n")
    report, table = mutants.build_report(config, equivalents)
    assert "**Out of date**" in report and "3 of 4 run; out of date" in table


def _finished_run() -> dict:
    return {
        "commit": "abc",
        "finished": True,
        "key": "old",
        "coverage": {"": [1], "tests/test_m.py::test_a": [2], "tests/test_m.py::test_b": [2]},
        "results": {
            "a": _result("survived", "    return x + y * 2", "    return x - y * 2", 2),
            "b": _result("survived", "    return x + y * 2", "    return x + y * 3", 2),
            "c": _result("killed", "    return x + y * 2", "    return x + y / 2", 2),
        },
    }  # fmt: skip


def test_a_recheck_is_recorded_only_into_a_finished_run_of_the_same_module_and_tests():
    run = _finished_run()
    now = {"tests/test_m.py::test_a", "tests/test_m.py::test_b", "tests/test_m.py::test_c"}
    assert mutants.recheck_refusal(run, SOURCE, SOURCE, now) is None  # a test added: fine
    # each precondition broken alone is refused, with its reason
    assert "no run" in mutants.recheck_refusal({**run, "results": {}}, SOURCE, SOURCE, now)
    assert "unfinished" in mutants.recheck_refusal({**run, "finished": False}, SOURCE, SOURCE, now)
    assert "not in this repository" in mutants.recheck_refusal(run, SOURCE, None, now)
    changed = SOURCE.replace("2", "4")
    assert "module changed" in mutants.recheck_refusal(run, changed, SOURCE, now)
    gone = mutants.recheck_refusal(run, SOURCE, SOURCE, now - {"tests/test_m.py::test_b"})
    assert "1 test(s)" in gone and "test_b" in gone


def test_a_recorded_recheck_replaces_the_survivors_outcomes_and_the_key_only():
    run = _finished_run()
    out = mutants.record_recheck(run, {"a": ("killed", 3.456), "b": ("survived", 9.0)},
                                 "new", "def")  # fmt: skip
    assert out["key"] == "new" and out["rechecked"] == "def" and out["commit"] == "abc"
    assert out["results"]["a"] == {**run["results"]["a"], "status": "killed", "seconds": 3.46,
                                   "rechecked": "def"}  # fmt: skip
    assert out["results"]["b"]["status"] == "survived" and out["results"]["b"]["rechecked"] == "def"
    assert out["results"]["c"] == run["results"]["c"]  # the run's kill kept as it was
    assert run["results"]["a"]["status"] == "survived" and run["key"] == "old"  # not mutated
    # nothing to rerun: only the key moves, and the report names no recheck
    assert mutants.record_recheck(run, {}, "new", "def") == {**run, "key": "new"}


def test_the_tests_collected_are_the_node_ids_pytest_names(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_m.py").write_text(
        "import pytest\n\ndef test_a(): pass\n\n"
        "@pytest.mark.parametrize('n', [1, 2])\ndef test_b(n): pass\n"
    )
    names = ["test_a", "test_b[1]", "test_b[2]"]
    assert mutants.collected(tmp_path, ["tests/test_m.py"]) == {
        f"tests/test_m.py::{n}" for n in names
    }


def test_the_report_names_the_commit_its_survivors_were_rechecked_at(tmp_path, monkeypatch):
    _toy_repo(tmp_path, monkeypatch)
    key = mutants.module_key(tmp_path, "m.py", ["tests/test_m.py"], {})
    results = mutants.Results("m.py")
    results.data = mutants.record_recheck({**_finished_run(), "tests": ["tests/test_m.py"],
                                           "options": {}, "mutants": 3},
                                          {"a": ("killed", 1.0), "b": ("survived", 2.0)},
                                          key, "def")  # fmt: skip
    results.save()
    config = {"modules": {"m.py": {"tests": ["tests/test_m.py"]}}}
    report, table = mutants.build_report(config, [])
    rows = mutants.parse_table(f"{mutants.BEGIN}\n{table}\n{mutants.END}")
    assert rows["m.py"]["killed"] == 2 and rows["m.py"]["survived"] == 1  # a killed since
    assert rows["m.py"]["run"] == "abc; 2 survivors rechecked at def"
    assert "Its 2 survivors rechecked at def" in report and "Out of date" not in report
