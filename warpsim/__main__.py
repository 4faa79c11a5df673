"""`python -m warpsim ...`: the same as the `warpsim` console script."""

from warpsim.entry import main

main()
