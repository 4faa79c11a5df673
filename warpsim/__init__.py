"""warpsim: replay a CUDA kernel's address stream warp by warp and count its memory traffic."""

__version__ = "0.1.0"
