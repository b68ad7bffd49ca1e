"""Text reports and the ``--json`` output."""
