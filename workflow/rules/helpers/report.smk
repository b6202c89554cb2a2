# Input functions and resources of the rules in report.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
def scheme_members(wildcards):
    return learnability_files("members.parquet", negatives=[wildcards.negatives])


def environment_digest():
    """The versions of every library the workflow's scripts import, and Python's: the
    tables job reruns when they change, so the report's provenance paragraph always
    compares the results with the environment it is made in."""
    import platform

    from learnability.codedigest import code_of
    from learnability.provenance import library_versions, versions_digest

    libraries = set()
    for script in sorted((ROOT / "workflow" / "scripts").glob("*.py")):
        libraries |= set(code_of(script).libraries)
    versions = library_versions(libraries)
    return versions_digest({**versions, "python": platform.python_version()})
