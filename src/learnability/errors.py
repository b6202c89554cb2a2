"""Errors raised for bad input. Each message names the file, the line or word, and the fix."""


class LearnabilityError(Exception):
    """Base class for errors a user can fix by changing their input or config."""


class InputError(LearnabilityError):
    """A user-supplied file (dump, word list, dictionary, embedding) is malformed."""


class DownloadError(LearnabilityError):
    """A download failed or its checksum did not match."""


class ConfigError(LearnabilityError):
    """The config holds a value the schema allows but the run cannot use."""
