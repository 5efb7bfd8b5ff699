"""The board's MicroPython firmware.

On the Pico the modules sit flat in the root of the filesystem; on the host, ``protocol`` and
``dice`` are imported from this package (they import nothing else from the firmware), so the
wire codec and the dice derivation exist exactly once.
"""
