"""Thread-modular proofs: invariants that hold whatever the number of threads
(:mod:`distaff.analysis.modular.prover`, over the domain of
:mod:`distaff.analysis.modular.intervals`)."""
