"""profiling: the real kernels on the GPU, measured by Nsight Compute, set beside warpsim.

    metrics   the one table of ncu metric names and what warpsim predicts for each
    problem   one launch (kernel, M, N, K, block), checked before anything runs
    build     kernels/<name>.cu -> nvcc cubin, cached by source sha256 (run, profile, SASS)
    launch    CuPy: load the cubin, random inputs, one launch, float64 check (the only CuPy import)
    ncu       the one place that runs ncu, and the version probes
    parse     ncu raw-page CSV or .ncu-rep -> DataFrame (pure)
    source    ncu's per-instruction source page -> .cu lines -> per-array rows (pure)
    traces    trace JSON files under traces/ (or --traces-dir, $WARPSIM_TRACES), written atomically
    record    `profile run`: profile one launch and write its trace
    compare   traces beside warpsim.engine.analyze, one analysis a launch (pure)
    bench     CUDA-event timings beside cuBLAS SGEMM
    report    tables fitted to the terminal (warpsim.terminal), CSV and JSON
    plot      `profile plot`: predicted vs measured beside the H200 roofline, one picture
    cli       `profile run | compare | bench | plot`

Importing the package needs neither CuPy nor a GPU nor ncu; using the GPU parts without them
is a one-line UsageError.
"""
