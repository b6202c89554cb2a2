"""Config checks and derivations that the JSON schema cannot express: what Snakemake
needs while it builds the DAG.

Used by ``workflow/rules/common.smk`` (and testable without Snakemake). Every error
names the config key and says what to change. What a job calls while it runs is
:mod:`learnability.pipeline.jobs`.
"""

from __future__ import annotations

import copy
import difflib
import functools
import importlib.util
import os
import re
import sys
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import yaml

from learnability.concepts.lists import member_indices, read_dictionary
from learnability.corpus.documents import stem_suffix
from learnability.corpus.sources import SOURCES
from learnability.defaults import SCHEMA, default
from learnability.embeddings import registry
from learnability.embeddings.shipped import SPEC_KEYS
from learnability.errors import ConfigError, DownloadError, LearnabilityError
from learnability.evaluations.registry import FILE_KINDS
from learnability.pipeline.corpus_draws import CORPORA_SWEEP, draw_points
from learnability.pipeline.jobs import vocab_bins, vocab_index
from learnability.pipeline.params import embedding_params
from learnability.pipeline.sweeps import expand_sweeps
from learnability.protocol.sampling import null_key
from learnability.protocol.sizes import unscored_reason
from learnability.statistics.pvalue_methods import (
    DEFAULT_PVALUE_METHOD,
    check_calibrated,
    random_list_splits,
)

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
# a list name is a path component of several outputs (results/learnability/E/LIST/...)
MAX_LIST_NAME = 100

# a pretrained spec's keys: what the CLI and the API also read, and the download's
PRETRAINED_KEYS = {*SPEC_KEYS, "url", "sha256", "sha1", "md5", "allow_unverified"}


@contextmanager
def config_errors_in_one_line(what: str = "Error in the config"):
    """Around the config checks that run while Snakemake reads the workflow: a
    :class:`~learnability.errors.LearnabilityError` (the config, a list file, a
    dictionary) ends the run with its one-line message and exit status 1, not with
    Snakemake's traceback of the Snakefile."""
    try:
        yield
    except LearnabilityError as exc:
        sys.exit(f"{what}: {exc}")


def load_schema(path=None) -> dict:
    """The config schema as a dict: ``path``, else the package's
    (:data:`learnability.defaults.SCHEMA`, which workflow/schemas/ links to)."""

    return yaml.safe_load(Path(path or SCHEMA).read_text(encoding="utf-8"))


def resolve_ref(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = {**schema["$defs"][name], **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def check_keys(config: dict, schema: dict) -> None:
    """Every key the schema does not know, and every value outside a key's ``enum``, named
    with its path and the closest known key or value, in one line, before the schema's own
    validation (whose message dumps the schema)."""

    def walk(value, node: dict, path: str) -> None:
        node = resolve_ref(schema, node)
        choices = node.get("enum")
        if choices is not None and isinstance(value, (str, int, float, bool)):
            if value not in choices:
                names = [str(c) for c in choices]
                close = difflib.get_close_matches(str(value), names, n=1, cutoff=0.6)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise ConfigError(
                    f"{path}: {value!r} is not one of {', '.join(names)}; {hint}".rstrip("; ")
                )
            return
        if not isinstance(value, dict):
            return
        props = node.get("properties")
        extra = node.get("additionalProperties", True)
        for key, sub in value.items():
            where = f"{path}.{key}" if path else str(key)
            if props is not None and key in props:
                walk(sub, props[key], where)
            elif isinstance(extra, dict):
                walk(sub, extra, where)
            elif extra is False and props is not None:
                known = sorted(props)
                close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise ConfigError(
                    f"{where}: unknown key; {hint}known keys here: {', '.join(known)}"
                )

    walk(config, schema, "")


def fill_defaults(config: dict, schema: dict) -> dict:
    """Every ``default:`` of the schema written into ``config`` where the key is missing,
    objects first and then their keys (as Snakemake's ``validate(set_default=True)``
    does), in place; returns ``config``. The one source of every default: common.smk
    calls it in every process that reads the workflow, so the rules index the config
    instead of repeating defaults in ``.get(key, default)``. Snakemake's own filling is
    not enough for that: 9.5.1-9.14.7 skip validation in remote jobs (SLURM), so their
    config lacked the defaults (snakemake/snakemake#3614)."""

    def walk(value, node: dict) -> None:
        node = resolve_ref(schema, node)
        if isinstance(value, list) and isinstance(node.get("items"), dict):
            for item in value:
                walk(item, node["items"])
            return
        if not isinstance(value, dict):
            return
        props = node.get("properties") or {}
        for key, sub in props.items():
            sub_node = resolve_ref(schema, sub)
            if key not in value and "default" in sub_node:
                value[key] = copy.deepcopy(sub_node["default"])
            if key in value:
                walk(value[key], sub_node)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            for key, sub in value.items():
                if key not in props:
                    walk(sub, extra)

    walk(config, schema)
    return config


def drop_removed(config: dict) -> dict:
    """A --configfile is merged into config/config.yaml, key by key, so it cannot delete an
    embedding the default defines; ``NAME: null`` under ``embeddings`` does (the default's
    trained word2vec, fastText and GloVe, in a config of pretrained vectors only). In
    place, before validation; returns ``config``."""
    embeddings = config.get("embeddings") or {}
    for name in [n for n, spec in embeddings.items() if spec is None]:
        del embeddings[name]
    return config


# The blocks that a config file of one's own replaces whole instead of merging into
# config/config.yaml's, key by key as Snakemake merges: a corpus' source keys belong
# together, and the sample's sha256 and format kept under a CSV of one's own would read it
# as a MediaWiki dump and fail its checksum. Each a path of keys.
REPLACED_BLOCKS = (("corpus", "source"),)


def _merged(into: object, value: object) -> object:
    """``value`` merged into ``into`` as Snakemake merges config files (mappings key by
    key, anything else replaced); copies, plain dicts (``--config`` gives immutable
    maps)."""
    if not isinstance(value, Mapping):
        return copy.deepcopy(value)
    out = dict(into) if isinstance(into, Mapping) else {}
    for key, sub in value.items():
        out[key] = _merged(out.get(key), sub)
    return out


def _given(config: object, path: tuple[str, ...]) -> tuple[bool, object]:
    """Whether ``config`` (a user's file or ``--config``) gives the key at ``path``, and
    its value."""
    for key in path:
        if not isinstance(config, Mapping) or key not in config:
            return False, None
        config = config[key]
    return True, config


def replace_user_blocks(config: dict, user_files: Sequence[Mapping],
                        overrides: Mapping | None = None) -> dict:  # fmt: skip
    """Each block of :data:`REPLACED_BLOCKS` that the user's config files give
    (``user_files``: their contents, in the order given) replaces the default's in
    ``config``, which Snakemake merged key by key; the files' blocks are merged with each
    other, and ``overrides`` (``--config``) still edit single keys on top. The keys the
    user leaves out then take the schema's defaults (:func:`fill_defaults`), not
    config/config.yaml's values. In place; returns ``config``. A corpus source given
    without a ``corpus.name`` of the user's own is a :class:`ConfigError` naming the key
    (the default's name would label another corpus' results)."""
    sources = [*user_files, *([overrides] if overrides else [])]
    for path in REPLACED_BLOCKS:
        given = [v for ok, v in (_given(f, path) for f in user_files) if ok]
        if not given:
            continue  # the default's block, as merged
        block: object = {}
        for value in given:
            block = _merged(block, value)
        ok, tweak = _given(overrides, path)
        if ok:
            block = _merged(block, tweak)
        named = any(_given(f, (*path[:-1], "name"))[0] for f in sources)
        if not named:
            where = ".".join(path[:-1])
            raise ConfigError(
                f"{where}.name: your config's {'.'.join(path)} replaces the default's whole, "
                f"so the {where} needs a name of its own (its results go under "
                f"results/corpus/NAME/)"
            )
        parent = config
        for key in path[:-1]:
            parent = parent.setdefault(key, {})
        parent[path[-1]] = block
    return config


def refuse_renamed(config: Mapping) -> None:
    """A config written for an older release names the corpus the way it was named then:
    ``dump:`` (now ``corpus.name`` and ``corpus.source``) and a corpus' file as
    ``source:`` under ``corpora:`` (now ``path:``). One line each that says where each key
    went, before the check of unknown keys could only say "unknown"."""
    if "dump" in config:
        raise ConfigError(
            "dump: the corpus is configured under corpus: now; move dump.name to "
            "corpus.name and the other dump.* keys to corpus.source.* (dump.source becomes "
            "corpus.source.path; format, sha256, base_url, status, columns keep their names)"
        )
    for name, block in (config.get("corpora") or {}).items():
        if isinstance(block, Mapping) and "source" in block:
            raise ConfigError(
                f"corpora.{name}.source: a corpus' file or folder is corpora.{name}.path "
                "now; rename the key"
            )


def report_name(config: Mapping, user_files: Mapping[str, Mapping],
                overrides: Mapping | None = None) -> str:  # fmt: skip
    """The configuration's name in figure titles: ``config``'s ``report.name`` where
    the user set it (in a config file of theirs or ``--config``), else the stems of their
    config files (``user_files``: path -> its contents), else the default's own.
    config/config.yaml names itself and a user's file is merged into it, so the merged
    value alone cannot say whose it is."""

    def sets_name(c: Mapping | None) -> bool:
        report = c.get("report") if isinstance(c, Mapping) else None
        return isinstance(report, Mapping) and "name" in report

    name = config["report"]["name"]
    if sets_name(overrides) or any(sets_name(c) for c in user_files.values()):
        return name
    if user_files:
        return ", ".join(Path(f).stem for f in user_files)
    return name


def check_source_format(source: dict, where: str = "corpus.source") -> None:
    """A corpus of one's own left at ``format: mediawiki`` (the default): a path whose
    name says another format, or a local folder (a MediaWiki dump is one file, or
    base_url), is one line naming the formats, before a job reads a CSV as XML."""

    path = source.get("path")
    if source.get("format") != "mediawiki" or not isinstance(path, str):
        return
    # one's own formats first: those are what a user who forgot the key meant
    formats = ", ".join([*(s for s in SOURCES if s != "mediawiki"), "mediawiki"])
    fix = f"set {where}.format to one of: {formats}"
    labels = {"text": "a plain text", "jsonl": "a JSON Lines", "csv": "a CSV",
              "tsv": "a TSV", "parquet": "a Parquet"}  # fmt: skip
    suffix = stem_suffix(Path(path.rstrip("/")))
    for name, labelled in labels.items():
        if suffix and suffix in SOURCES[name].suffixes:
            raise ConfigError(
                f"{where}.format: {path} looks like {labelled} file but {where}.format is "
                f"mediawiki (the default); {fix}"
            )
    if _is_local(path) and Path(path).is_dir():
        raise ConfigError(
            f"{where}.format: {path} is a folder but {where}.format is mediawiki (the "
            f"default), which reads one dump file; {fix}"
        )


# the config keys that name local input files or folders


def _is_local(path) -> bool:
    return isinstance(path, str) and "://" not in path and not Path(path).is_absolute()


def anchor_paths(config: dict, root: Path, *, absolute: bool = False) -> dict:
    """Resolve the config's relative input paths in place: one that exists under the
    working folder stays as written (made absolute when ``absolute``); one that does not,
    but exists under ``root`` (the workflow's own checkout), becomes that absolute path.

    The second case serves the shipped defaults (``resources/...``) when the workflow runs
    from another folder or as a module of another workflow. ``absolute`` is for module
    use: Snakemake prepends a module's ``prefix:`` to every relative input path, which
    would move the user's own files too. Paths that exist nowhere are left for the checks
    that name their key."""

    def anchor(path):
        if not _is_local(path):
            return path
        if Path(path).exists():
            return str(Path(path).absolute()) if absolute else path
        if (root / path).exists():
            return str(root / path)
        return path

    source = config.get("corpus", {}).get("source") or {}
    for key in ("path", "pinned"):
        if source.get(key):
            source[key] = anchor(source[key])
    for block in (config.get("corpora") or {}).values():
        if block and block.get("path"):
            block["path"] = anchor(block["path"])
    for spec in (config.get("embeddings") or {}).values():
        for key in ("path", "words"):
            if spec and key in spec:
                spec[key] = anchor(spec[key])
    lists = config.get("wordlists", {})
    if "dir" in lists:
        dirs = lists["dir"]
        lists["dir"] = anchor(dirs) if isinstance(dirs, str) else [anchor(d) for d in dirs]
    for dic in lists.get("dictionaries", []):
        dic["path"] = anchor(dic["path"])
    for kind in FILE_KINDS:
        block = config.get("evaluations", {}).get(kind) or {}
        if "files" in block:
            block["files"] = [anchor(f) for f in block["files"]]
    return config


def local_file(path: str, key: str) -> Path:
    """A config path to a local file, or ``package://DIST/path`` inside an installed
    package, resolved; a clear error when it is missing."""
    if path.startswith("package://"):
        from learnability.corpus.download import resolve_package_path

        try:
            return resolve_package_path(path)
        except DownloadError as exc:
            raise ConfigError(f"{key}: {exc}") from None
    if not Path(path).is_file():
        raise ConfigError(f"{key}: {path} does not exist; fix the path or give a 'url' instead")
    return Path(path)


# files beside the lists that are documentation, not lists: never warned about
_NOT_LISTS = re.compile(r"^(\.|readme|licen[cs]e|copying|notice|citation|authors)", re.I)


# results folders an older version wrote, by the folder that holds their tables now
RENAMED_RESULTS = {"results/diagnostics": "results/analyses"}


def older_results(workdir: str | Path = ".") -> list[str]:
    """One warning per results folder of an older version in ``workdir``: this version
    neither reads nor writes it, so its tables would otherwise sit there unnoticed."""
    return [
        f"{old}/ is an older version's folder, which this version neither reads nor "
        f"writes: its tables are now written to {new}/ (delete {old}/ once they are)"
        for old, new in RENAMED_RESULTS.items()
        if (Path(workdir) / old).is_dir()
    ]


def ignored_list_files(config: dict) -> list[str]:
    """One warning per file in a ``wordlists.dir`` folder that will not be read as a list
    (only ``*.txt`` are): ``short.TXT``, ``words.lst``, a ``.dic`` dictionary. README,
    LICENSE, Markdown and hidden files are documentation and pass silently."""
    dirs = config["wordlists"]["dir"]
    out = []
    for directory in map(Path, [dirs] if isinstance(dirs, str) else dirs):
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir()):
            if not path.is_file() or path.suffix == ".txt":
                continue
            if _NOT_LISTS.match(path.name) or path.suffix.lower() == ".md":
                continue
            if path.suffix.lower() == ".txt":
                fix = f"rename it to {path.stem}.txt"
            elif path.suffix.lower() in (".dic", ".csv", ".tsv"):
                fix = "a dictionary or table goes under wordlists.dictionaries"
            else:
                fix = "only *.txt files are lists; rename it to .txt to use it"
            out.append(f"{path}: not read as a word list ({fix})")
    return out


def list_registry(config: dict) -> dict[str, dict]:
    """All concept lists: ``name -> {path, kind, category}``, in a stable order."""
    lists: dict[str, dict] = {}
    dirs = config["wordlists"]["dir"]
    for directory in map(Path, [dirs] if isinstance(dirs, str) else dirs):
        if not directory.is_dir():
            raise ConfigError(
                f"wordlists.dir: {directory} is not a directory; create it or fix "
                "the path in the config"
            )
        for path in sorted(directory.glob("*.txt")):
            name = path.stem
            if not NAME.match(name) or len(name) > MAX_LIST_NAME:
                raise ConfigError(
                    f"{path}: list names come from file names and must use letters, digits, "
                    f"'_', '.' or '-' (starting with a letter or digit), at most "
                    f"{MAX_LIST_NAME} characters; rename the file"
                )
            if name in lists:
                raise ConfigError(
                    f"{path}: a list named {name!r} is also in {lists[name]['path']}; list "
                    "names must be unique across wordlists.dir, so rename one"
                )
            lists[name] = {"path": str(path), "kind": "txt"}
    for dic in config["wordlists"].get("dictionaries", []):
        path = Path(dic["path"])
        if not path.is_file():
            raise ConfigError(f"wordlists.dictionaries[{dic['name']}].path: {path} does not exist")
        fmt = dic.get("format", "auto")
        parsed = read_dictionary(path, fmt)
        wanted = dic.get("categories") or list(parsed.categories.values())
        unknown = [c for c in wanted if c not in parsed.entries]
        if unknown:
            raise ConfigError(
                f"wordlists.dictionaries[{dic['name']}].categories: {unknown} are not in "
                f"{path}; it defines {sorted(parsed.entries)}"
            )
        for category in wanted:
            name = f"{dic['name']}_{category}"
            if not NAME.match(name) or len(name) > MAX_LIST_NAME:
                shown = category if len(category) <= 60 else category[:60] + "..."
                raise ConfigError(
                    f"{path}: category {shown!r} cannot be part of a file name (letters, "
                    f"digits, '_', '.', '-'; at most {MAX_LIST_NAME} characters with the "
                    "dictionary's name); list only plain categories in "
                    f"wordlists.dictionaries[{dic['name']}].categories"
                )
            if name in lists:
                raise ConfigError(
                    f"list name {name!r} is defined twice ({path} and {lists[name]['path']})"
                )
            lists[name] = {"path": str(path), "kind": "dic", "category": category, "format": fmt}
    if not lists:
        raise ConfigError(
            f"no concept lists: put *.txt lists in {directory} or add wordlists.dictionaries"
        )
    return lists


def check_trainers(config: dict) -> None:
    """An unknown method, or one whose trainer comes from an optional extra that is not
    installed, is a config error naming the known methods or the extra, before any job
    runs."""

    for name, spec in (config.get("embeddings") or {}).items():
        method = (spec or {}).get("method")
        if method not in registry.METHODS:
            raise ConfigError(
                f"embeddings.{name}.method: unknown method {method!r}; known: "
                f"{', '.join(registry.METHODS)}"
            )
        package, below = registry.METHODS[method].package, registry.METHODS[method].python_below
        if package and below and sys.version_info[:2] >= below:
            raise ConfigError(
                f"embeddings.{name}.method: {method} needs the {package[2]} package, which "
                f"has no build for Python {sys.version_info.major}.{sys.version_info.minor}: "
                f"run it with Python {below[0]}.{below[1] - 1} or earlier, or use another method"
            )
        if package and importlib.util.find_spec(package[0]) is None:
            module, extra, dist = package
            raise ConfigError(
                f"embeddings.{name}.method: {method} needs the {dist} package, an "
                f"optional extra: pip install -e '.[{extra}]'"
            )
        if registry.METHODS[method].trainer:
            embedding_params(config, name)  # the training keys it reads are all set


def check_config(config: dict) -> None:
    """Cross-key checks; raise :class:`ConfigError` naming the key and the fix."""
    check_trainers(config)

    check = config.get("suggestions", {}).get("check", {})
    holdout = check.get("holdout", default("suggestions.check.holdout"))
    folds = check.get("folds", default("suggestions.check.folds"))
    parts = max(2, round(1 / holdout))
    if folds > parts:
        raise ConfigError(
            f"suggestions.check.folds: {folds} folds of {holdout:g} of the members cannot "
            f"all be hidden in turn; use at most {parts} (1 / holdout)"
        )
    source = config["corpus"]["source"]
    if (source.get("path") is None) == (source.get("base_url") is None):
        raise ConfigError(
            "corpus.source: give exactly one of 'path' (one dump file, with "
            "sha256/sha1/md5, or your own corpus' file or folder) and 'base_url' (the folder "
            "of a multi-part dump, with 'status'); remove the other or set it to null"
        )
    embeddings = config["embeddings"]
    for name, spec in embeddings.items():
        if spec["method"] == "random":
            ref = spec.get("reference")
            if ref is None:
                raise ConfigError(
                    f"embeddings.{name}.reference: a random embedding needs "
                    "the name of an embedding whose vocabulary it uses"
                )
            trained = [e for e, s in embeddings.items() if s["method"] != "random"]
            if ref not in trained:
                raise ConfigError(
                    f"embeddings.{name}.reference: {ref!r} is not a trained "
                    f"embedding; choose one of {trained}"
                )
        elif "reference" in spec or "seed" in spec:
            raise ConfigError(
                f"embeddings.{name}: 'reference' and 'seed' are for random "
                "embeddings; use params.seed for a trainer's seed"
            )
        pretrained_keys = sorted(set(spec) & PRETRAINED_KEYS)
        if spec["method"] == "pretrained":
            if ("path" in spec) == ("url" in spec):
                raise ConfigError(
                    f"embeddings.{name}: a pretrained embedding needs exactly one of 'path' "
                    "(a local file) and 'url' (downloaded and verified)"
                )
            for key in ("path", "words"):
                if key in spec:
                    local_file(spec[key], f"embeddings.{name}.{key}")
            if (spec.get("format") == "npy") != ("words" in spec):
                raise ConfigError(
                    f"embeddings.{name}: 'words' (the word list of a .npy matrix) goes with "
                    "format: npy, and format: npy needs it"
                )
            if "params" in spec:
                raise ConfigError(
                    f"embeddings.{name}.params: a pretrained embedding is not trained here; "
                    "remove 'params'"
                )
        elif pretrained_keys:
            raise ConfigError(
                f"embeddings.{name}: {pretrained_keys} are for pretrained embeddings "
                f"(method: pretrained), not for method {spec['method']!r}"
            )
    for name in config["compare"]["embeddings"]:
        if name not in embeddings:
            raise ConfigError(
                f"compare.embeddings: {name!r} is not defined under "
                f"embeddings (defined: {sorted(embeddings)})"
            )
    evaluations = config.get("evaluations", {})
    for kind in FILE_KINDS:
        files = evaluations.get(kind, {}).get("files", [])
        stems = [evaluation_file_name(f) for f in files]
        for f in files:
            if not f.startswith("package://") and not Path(f).exists():
                raise ConfigError(
                    f"evaluations.{kind}.files: {f} does not exist; fix the path, or "
                    f"remove it from the list ([] turns {kind} off)"
                )
        dupes = sorted({s for s in stems if stems.count(s) > 1})
        if dupes:
            raise ConfigError(
                f"evaluations.{kind}.files: two files are named {dupes}; results are kept "
                "per file name, so rename one"
            )
    table_size = config.get("report", {}).get("table_size", 400)
    if table_size not in config["random_lists"]["sizes"]:
        raise ConfigError(
            f"report.table_size: {table_size} must be one of random_lists.sizes "
            f"{config['random_lists']['sizes']}"
        )

    rl = config["random_lists"]
    method = rl.get("method", DEFAULT_PVALUE_METHOD)
    try:
        check_calibrated(
            method, rl["iterations"], rl["lists"], config["learnability"]["iterations"]
        )
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def schema_validate(config: dict, schema_path) -> None:
    """The config against its JSON schema (Draft 2020-12, as Snakemake's validate reads
    it), raising :class:`ConfigError` with the first violation in one line."""
    import jsonschema

    schema = load_schema(schema_path)
    try:
        jsonschema.Draft202012Validator(schema).validate(config)
    except jsonschema.ValidationError as exc:
        where = ".".join(str(p) for p in exc.absolute_path) or "(top level)"
        raise ConfigError(f"{where}: {exc.message}") from None


def prepare_config(config: dict, schema_path, root: Path, *, absolute: bool = False,
                   validate=schema_validate, user_files: Sequence[Mapping] = (),
                   overrides: Mapping | None = None):  # fmt: skip
    """Everything the workflow does to its config before any rule, in place: the blocks
    the user's config files give replacing the default's (:func:`replace_user_blocks`;
    ``user_files`` and ``overrides``: their contents and ``--config``, where ``config``
    is config/config.yaml with them merged in), removed keys dropped, misspelt keys
    named, the schema checked (``validate(config, schema_path)``: Snakemake's validate in
    the workflow, :func:`schema_validate` elsewhere), its defaults filled, a corpus of
    one's own left at the MediaWiki format named, paths anchored at ``root`` (absolute
    in a module), the cross-key checks, the list registry and the sweeps' points. Returns
    (schema, lists, sweeps); a bad config raises :class:`ConfigError` in one line (the
    schema's own validate may raise its own error)."""

    # an older config's keys, each named with where it went (a user's file merged into
    # config/config.yaml holds the old key beside the new default's)
    for given in [*user_files, overrides or {}]:
        refuse_renamed(given)
    refuse_renamed(config)
    replace_user_blocks(config, user_files, overrides)
    drop_removed(config)
    schema = load_schema(schema_path)
    # a misspelt key gets "did you mean" in one line, before validate's dump of the schema
    check_keys(config, schema)
    validate(config, str(schema_path))
    # the schema's defaults, in every process (remote jobs included): the rules index the
    # config and repeat no default
    fill_defaults(config, schema)
    # the source as the user wrote it, before it is anchored
    check_source_format(config["corpus"]["source"])
    anchor_paths(config, root, absolute=absolute)
    check_config(config)
    lists = list_registry(config)
    sweeps = expand_sweeps(config, schema)
    # the corpus comparison's draws are scored as a sweep's points are
    draws = draw_points(config, schema)
    if draws:
        sweeps[CORPORA_SWEEP] = draws
    return schema, lists, sweeps


def null_iterations(config: dict) -> int:
    """Splits per random list: the lists' own number under ``method: matched``."""

    rl = config["random_lists"]
    return random_list_splits(
        rl.get("method"), config["learnability"]["iterations"], rl["iterations"]
    )


def evaluation_file_name(path: str) -> str:
    """The dataset name of an evaluation file: its name without extension (a folder, as
    BATS ships: its name)."""
    p = Path(path.rstrip("/"))
    return p.name if p.is_dir() else p.name.split(".")[0]


def matched_null_key(concept_path: str, vocab_path: str, negatives: str, n_bins: int) -> str:
    """The null a resolved list needs: ``size-N``, or ``profile-...`` under frequency-matched
    negatives (the same key :func:`learnability.protocol.evaluate.null_key` gives it)."""

    resolved = pd.read_parquet(concept_path, columns=["status", "word"])
    # both cached per vocabulary file: Snakemake asks for every list's key on each DAG
    # evaluation, and again after every resolve_concept checkpoint
    members = member_indices(resolved, vocab_index(vocab_path))
    bins = vocab_bins(vocab_path, n_bins)[1] if negatives == "frequency_matched" else None
    return null_key(members, negatives, bins, n_bins)


def unscored_concept(concept_path: str, vocab_path: str, min_words: int) -> str | None:
    """Why a resolved list cannot be scored in its embedding's space, or None: the
    workflow schedules no job for such a list, and its tables give this reason in its
    row (:func:`learnability.protocol.sizes.unscored_reason`)."""

    # cached by the files' mtimes: Snakemake asks for every list on each DAG evaluation
    stamps = (os.stat(concept_path).st_mtime_ns, os.stat(vocab_path).st_mtime_ns)
    return _unscored_concept(concept_path, vocab_path, min_words, stamps)


@functools.lru_cache(maxsize=4096)
def _unscored_concept(
    concept_path: str, vocab_path: str, min_words: int, stamps: tuple[int, int]
) -> str | None:

    resolved = pd.read_parquet(concept_path, columns=["status", "word"])
    index = vocab_index(vocab_path)
    return unscored_reason(member_indices(resolved, index).size, len(index), min_words)
