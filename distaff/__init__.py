"""distaff: checks the assert()s of multithreaded C programs by symbolic execution.

Installed, the code is one package: :mod:`distaff.analysis` computes (front
end, static analyses, the engine, the reductions, "check from here") and
:mod:`distaff.server` converts (the command line, the language server).
In the source tree the two live in the folders ``analysis/`` and ``server/``
beside this one, linked in here.

The entry point for programs is :func:`distaff.analysis.check.check_text`
(or :func:`~distaff.analysis.check.check` on a parsed program), with
:class:`distaff.analysis.options.Options`.
"""
