"""The command-line tools and what only they need.

``mini-iree-opt`` (opt_main), ``mini-iree-run`` (run_main), ``mini-iree-layout``
(layout_main) and ``mini-iree-walkthrough`` (walkthrough_main), with the pieces
they share: flag parsing (cmdline), pass-pipeline strings (pipeline), printing
flags (print_options), ``--verify-diagnostics`` (verify_diagnostics) and safe
output files (output_file).
"""
