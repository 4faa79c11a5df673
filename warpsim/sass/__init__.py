"""warpsim's machine-code front-end and engine: any kernel, exact from the SASS nvcc emits.

    cubin.py    the cubin's ELF: entry points, parameters (.nv.info), shared memory, PTX names
    isa.py      nvdisasm's JSON -> Instruction records (pc, guard, opcode, modifiers, operands, line)
    program.py  one entry point ready to run: instructions, control-flow graph, loops
    listing.py  the memory instructions of a cubin as a table (the profiling side reads it)
"""
