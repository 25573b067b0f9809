from distaff.analysis.check import Options
from distaff.server.settings import Settings, parse_settings


def test_defaults_are_the_documented_ones():
    s = Settings()
    assert (s.check_on, s.debounce_ms, s.mode, s.unwind, s.timeout_s, s.workers, s.max_memory_mb) == (
        "save", 500, "dpor-ag", 8, 30.0, 1, 2048)
    assert s.options() == Options(mode="dpor-ag", unwind=8, timeout_s=30.0, workers=1, max_memory_mb=2048)


def test_every_key_is_read_and_mapped_to_options():
    s, problems = parse_settings({
        "checkOn": "change", "debounceMs": 250, "mode": "baseline", "unwind": 3,
        "timeout": 2.5, "workers": 2, "maxMemoryMB": 512, "traceInMessage": "always",
    })
    assert problems == ()
    assert (s.check_on, s.debounce_ms, s.max_memory_mb, s.trace_in_message) == ("change", 250, 512, "always")
    assert s.options() == Options(mode="baseline", unwind=3, timeout_s=2.5, workers=2, max_memory_mb=512)


def test_section_nested_under_distaff_and_partial_updates_keep_the_rest():
    base, _ = parse_settings({"unwind": 4})
    s, problems = parse_settings({"distaff": {"mode": "dpor"}}, base)
    assert problems == ()
    assert (s.unwind, s.mode) == (4, "dpor")


def test_bad_values_keep_defaults_and_are_named():
    s, problems = parse_settings({
        "checkOn": "always", "unwind": 0, "timeout": -1, "workers": True, "mode": 3, "colour": "red",
    })
    assert s == Settings()
    assert len(problems) == 6
    assert any("distaff.checkOn" in p and "save, change, manual" in p for p in problems)
    assert any("distaff.colour: unknown setting" in p for p in problems)


def test_timeout_zero_or_null_means_no_limit_and_editor_keys_are_ignored():
    s, problems = parse_settings({"timeout": 0, "server": {"command": "distaff"}, "trace": {"server": "off"}})
    assert problems == () and s.timeout_s is None
    s, _ = parse_settings({"timeout": None})
    assert s.timeout_s is None


def test_not_an_object_is_a_problem_not_a_crash():
    s, problems = parse_settings(["checkOn"])
    assert s == Settings() and problems
    assert parse_settings(None) == (Settings(), ())


def test_the_command_line_bound_is_a_setting():
    s, problems = parse_settings({"symArgs": 3, "symArgLen": 4})
    assert problems == ()
    assert (s.options().sym_args, s.options().sym_arg_len) == (3, 4)
    _, problems = parse_settings({"symArgLen": 0})
    assert problems and "symArgLen" in problems[0]
