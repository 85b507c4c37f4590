"""Benchmarks and reference engines that live outside the interpreter."""
