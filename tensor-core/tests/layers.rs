//! The layers of tensor-core import downward only (ARCHITECTURE.md):
//! every `crate::` path in a module's code (its tests and comments aside)
//! names a module of its own layer or of one below, the planner names
//! nothing of the executor (`exec::sys` included), and no modules name
//! each other in a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers from the bottom up: each module named by its path from the
/// crate root. A module not listed inherits its parent's layer.
const LAYERS: &[&[&str]] = &[
    // Leaves.
    &[
        "error",
        "element",
        "rank",
        "index",
        "mode",
        "value",
        "target",
        "memory",
        "exec::sys",
    ],
    &["plan"],
    &["exec"],
    // The entry layer, itself in order: prepare, then the chooser, then the
    // API, then batched calls over it, then NumPy's functions beside
    // indexing.
    &["prepare"],
    &["choose"],
    &["api"],
    &["batched"],
    &["numpy"],
    &["backend", "builder", "typed", "entry", "common"],
    // A backend beside the CPU's: burn's tensors (feature `burn`).
    &["burn"],
    &["lib"],
];

/// The layer of module `path` (`exec::sys::stream`, `plan`, ...).
fn layer(path: &str) -> usize {
    let mut prefix = path;
    loop {
        if let Some(layer) = LAYERS.iter().position(|layer| layer.contains(&prefix)) {
            return layer;
        }
        match prefix.rsplit_once("::") {
            Some((parent, _)) => prefix = parent,
            None => panic!("module `{path}` is in no layer: add it to LAYERS"),
        }
    }
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file (`exec/sys/mod.rs` is `exec::sys`).
fn module_of(root: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(root).unwrap().with_extension("");
    let parts: Vec<String> = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    match parts.as_slice() {
        [only] if only == "lib" => "lib".to_owned(),
        [.., last] if last == "mod" => parts[..parts.len() - 1].join("::"),
        _ => parts.join("::"),
    }
}

/// The modules a file's code names through `crate::` (or `$crate::`),
/// each as long a path as names a module of the crate; test modules (from
/// the first `#[cfg(test)]` or `#[cfg(all(test`) and comments aside.
fn named_modules(code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let code = ["#[cfg(test)]", "#[cfg(all(test"]
        .iter()
        .filter_map(|marker| code.find(marker))
        .min()
        .map_or(code, |end| &code[..end]);
    let mut named = BTreeSet::new();
    for line in code.lines().map(str::trim_start).filter(|line| !line.starts_with("//")) {
        for (at, _) in line.match_indices("crate::") {
            let rest = &line[at + "crate::".len()..];
            let path: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            // The longest prefix of the path that is a module.
            let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            if let Some(module) = (1..=segments.len())
                .rev()
                .map(|n| segments[..n].join("::"))
                .find(|m| modules.contains(m))
            {
                named.insert(module);
            }
        }
        // `use crate::{a, b}` names its modules at the top level.
        if let Some(group) = line.strip_prefix("use crate::{") {
            for name in group
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|n| modules.contains(*n))
            {
                named.insert(name.to_owned());
            }
        }
    }
    named
}

#[test]
fn layers_import_downward_only_and_without_circles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|file| module_of(&root, file)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut upward = Vec::new();
    for file in &files {
        let module = module_of(&root, file);
        let code = fs::read_to_string(file).unwrap();
        for named in named_modules(&code, &modules) {
            // A module naming its own children is the module tree, not an import.
            if named == module || named.starts_with(&format!("{module}::")) {
                continue;
            }
            if layer(&named) > layer(&module) {
                upward.push(format!("{module} names {named}"));
            }
            // The planner knows no hardware: nothing of the executor, its
            // machine module included.
            if (module == "plan" || module.starts_with("plan::")) && (named == "exec" || named.starts_with("exec::")) {
                upward.push(format!("the planner ({module}) names {named}"));
            }
            graph.entry(module.clone()).or_default().insert(named);
        }
    }
    assert!(upward.is_empty(), "imports upward: {upward:#?}");
    // No circle among the files: a depth-first search finds no back edge.
    fn visit(module: &str, graph: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>, done: &mut BTreeSet<String>) {
        if done.contains(module) {
            return;
        }
        if let Some(start) = path.iter().position(|m| m == module) {
            panic!("a circle of imports: {:?}", &path[start..]);
        }
        path.push(module.to_owned());
        for next in graph.get(module).into_iter().flatten() {
            visit(next, graph, path, done);
        }
        path.pop();
        done.insert(module.to_owned());
    }
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        visit(module, &graph, &mut Vec::new(), &mut done);
    }
    // The check itself works: an upward name is caught.
    assert_eq!(
        named_modules("use crate::api::get;\n// crate::choose\n", &modules),
        BTreeSet::from(["api".to_owned()])
    );
    assert!(layer("plan::resolve") < layer("exec::scatter") && layer("exec::sys::stream") < layer("plan"));
}

/// A file's code with its test modules (from the first `#[cfg(test)]` or
/// `#[cfg(all(test`) and its comments left out.
fn code_outside_tests(code: &str) -> String {
    let code = ["#[cfg(test)]", "#[cfg(all(test"]
        .iter()
        .filter_map(|marker| code.find(marker))
        .min()
        .map_or(code, |end| &code[..end]);
    code.lines()
        .map(str::trim_start)
        .filter(|line| !line.starts_with("//"))
        .map(|line| line.split_once(" // ").map_or(line, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `code` names `reader` where an identifier starts (`caches(` but
/// not `unified_caches(`).
fn calls(code: &str, reader: &str) -> bool {
    code.match_indices(reader)
        .any(|(at, _)| !code[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_'))
}

/// What reads the machine: cache sizes, CPU features, how rows store
/// fastest (measured, and the policy on it), the thread count.
const READERS: &[&str] = &[
    "caches(",
    "Isa::detect",
    "is_x86_feature_detected",
    "measured(",
    "streams_rows",
    "available_parallelism",
    "current_num_threads",
    "/proc/cpuinfo",
    "/sys/devices",
];

/// The files that may call [`READERS`] (and those under `exec/sys/`):
/// the description, and the measure it keeps.
const READ_THE_MACHINE: &[&str] = &["choose/machine.rs", "choose/rows.rs"];

/// The entries that time a call's own work to learn the machine
/// (`rows::measure`: how a row scatter or a row gather stores rows
/// fastest).
const MEASURERS: &[&str] = &["choose/set.rs", "choose/read.rs"];

/// The public entries that read the machine once per call, through
/// `Machine::now`, and pass it down.
const ENTRIES: &[&str] = &[
    "choose/read.rs",
    "choose/set.rs",
    "choose/update.rs",
    "choose/few.rs",
    "choose/mask.rs",
    "batched.rs",
    // burn's read and write entries: the host plans with the CPU's passes.
    "burn/call.rs",
];

/// The invariant that the chooser holds every hardware decision: the
/// machine is read only by `choose/machine.rs` (through `exec/sys/`'s
/// readers), and `Machine::now` is called only at the public entries
/// listed; everything else receives the `Machine` or its decisions.
#[test]
fn the_machine_is_read_only_in_choose_machine_and_exec_sys() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut stray = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        let code = code_outside_tests(&fs::read_to_string(file).unwrap());
        let reads = relative.starts_with("exec/sys/") || READ_THE_MACHINE.contains(&relative.as_str());
        for reader in READERS.iter().filter(|reader| !reads && calls(&code, reader)) {
            stray.push(format!("{relative} calls {reader}"));
        }
        if calls(&code, "Machine::now") && !ENTRIES.contains(&relative.as_str()) {
            stray.push(format!("{relative} calls Machine::now"));
        }
        if calls(&code, "rows::measure(") && !reads && !MEASURERS.contains(&relative.as_str()) {
            stray.push(format!("{relative} calls rows::measure"));
        }
    }
    assert!(stray.is_empty(), "the machine read outside the chooser's entries: {stray:#?}");
    for allowed in READ_THE_MACHINE.iter().chain(ENTRIES).chain(MEASURERS) {
        assert!(root.join(allowed).is_file(), "{allowed} is listed but missing");
    }
    // The check itself works.
    assert!(calls("let isa = Isa::detect();", "Isa::detect"));
    assert!(calls("caches: caches(),", "caches("));
    assert!(!calls("fn unified_caches(level: u32)", "caches("));
    assert!(!calls(
        &code_outside_tests("// Isa::detect()\nlet a = 1; // Machine::now()"),
        "Isa::detect"
    ));
    assert!(!calls(
        &code_outside_tests("fn a() {}\n#[cfg(test)]\nmod tests { fn b() { Isa::detect(); } }"),
        "Isa::detect"
    ));
}

/// Executors decide no error: plans arrive checked, and the checked loops
/// report a bad index for the entry layer to turn into the error.
#[test]
fn exec_builds_no_index_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root.join("exec"), &mut files);
    assert!(!files.is_empty());
    let building: Vec<_> = files
        .iter()
        .filter(|file| code_outside_tests(&fs::read_to_string(file).unwrap()).contains("IndexError::"))
        .collect();
    assert!(building.is_empty(), "exec builds an IndexError: {building:#?}");
}

/// The workspace's other crates, beside tensor-core's own directory.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Every `.rs` file of the library code in the workspace: the sources of
/// tensor-ops, tensor-core, tensor-macros, tensor-gpu and the facade.
fn library_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["tensor-ops/src", "tensor-core/src", "tensor-macros/src", "tensor-gpu/src", "src"] {
        let dir = workspace().join(dir);
        assert!(dir.is_dir(), "{} is part of the workspace", dir.display());
        sources(&dir, &mut files);
    }
    files
}

/// Where `text` names a workload of the bench (`W1` to `W16`, `W3a`):
/// a `W`, one or two digits and an optional `a` or `b`, as a word.
fn workload_names(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let word = |at: usize| bytes.get(at).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    let mut found = Vec::new();
    for (at, _) in text.match_indices('W') {
        if at > 0 && word(at - 1) {
            continue;
        }
        let digits = bytes[at + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        let mut end = at + 1 + digits;
        if matches!(bytes.get(end), Some(b'a' | b'b')) {
            end += 1;
        }
        if (1..=2).contains(&digits) && !word(end) {
            found.push(text[at..end].to_owned());
        }
    }
    found
}

/// Measurements live in docs/performance.md, which comments point to by
/// heading: library code, comments included, names no workload of the
/// bench and no machine it ran on.
#[test]
fn library_code_names_no_workloads_or_machines() {
    let mut found = Vec::new();
    for file in library_sources() {
        let text = fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let at = format!("{}:{}", file.strip_prefix(workspace()).unwrap().display(), n + 1);
            found.extend(workload_names(line).into_iter().map(|name| format!("{at} names {name}")));
            for machine in ["EPYC", "Xeon", "both cores", "bench VM"] {
                if line.contains(machine) {
                    found.push(format!("{at} names {machine}"));
                }
            }
        }
    }
    assert!(found.is_empty(), "measurements in library code: {found:#?}");
    // The check itself works.
    assert_eq!(workload_names("W14 and (W3b), not W100, W, W3c or KW1"), ["W14", "W3b"]);
}

/// The headings of docs/performance.md that `text` cites, as
/// `performance.md, "Heading"` (or, in Markdown, `(docs/performance.md),
/// "Heading"`), with the comment markers of a citation wrapped over lines
/// taken out.
fn cited_headings(text: &str) -> Vec<String> {
    let joined = text
        .lines()
        .map(|line| {
            line.trim_start()
                .trim_start_matches("//!")
                .trim_start_matches("///")
                .trim_start_matches("//")
                .trim()
        })
        .collect::<Vec<_>>()
        .join(" ");
    let mut found = Vec::new();
    for marker in ["performance.md, \"", "performance.md), \""] {
        let mut rest = joined.as_str();
        while let Some(at) = rest.find(marker) {
            let after = &rest[at + marker.len()..];
            let Some(end) = after.find('"') else { break };
            found.push(after[..end].to_owned());
            rest = &after[end..];
        }
    }
    found
}

/// Every heading of docs/performance.md that library code, the README or
/// ARCHITECTURE.md points to for a measurement exists there, word for
/// word.
#[test]
fn cited_measurements_have_their_headings() {
    let doc = fs::read_to_string(workspace().join("docs/performance.md")).unwrap();
    let headings: BTreeSet<&str> = doc
        .lines()
        .filter(|line| line.starts_with('#'))
        .map(|line| line.trim_start_matches('#').trim())
        .collect();
    let mut files = library_sources();
    files.extend(["README.md", "ARCHITECTURE.md"].map(|file| workspace().join(file)));
    let (mut cited, mut missing) = (0, Vec::new());
    for file in files {
        for heading in cited_headings(&fs::read_to_string(&file).unwrap()) {
            cited += 1;
            if !headings.contains(heading.as_str()) {
                missing.push(format!("{} cites \"{heading}\"", file.strip_prefix(workspace()).unwrap().display()));
            }
        }
    }
    assert!(missing.is_empty(), "headings docs/performance.md lacks: {missing:#?}");
    assert!(cited >= 10, "the scan finds the citations ({cited})");
    // The scan itself works, across a wrapped comment and in Markdown.
    let text =
        "/// (measured: docs/performance.md, \"Row stores\n/// measured\").\nSee ([docs/performance.md](docs/performance.md), \"Floors\").";
    assert_eq!(cited_headings(text), ["Row stores measured", "Floors"]);
}

/// tensor-gpu restates no rule of tensor-core: it names `IndexError`'s
/// variants only in patterns (to pass an error on, or to ask which it
/// is), and builds none; tensor-core's `prepare` builds them all.
#[test]
fn tensor_gpu_builds_no_index_error() {
    let mut files = Vec::new();
    sources(&workspace().join("tensor-gpu/src"), &mut files);
    assert!(!files.is_empty());
    let pattern = |line: &str| line.contains("matches!(") || line.starts_with("if let ") || line.contains(" => ");
    let mut building = Vec::new();
    for file in &files {
        let code = code_outside_tests(&fs::read_to_string(file).unwrap());
        for line in code.lines().filter(|line| line.contains("IndexError::") && !pattern(line)) {
            building.push(format!("{}: {line}", file.display()));
        }
    }
    assert!(building.is_empty(), "tensor-gpu builds an IndexError: {building:#?}");
}

/// The variants of each `enum` declared in `code`: the first word of each
/// line of its body, by name of the enum.
fn enum_variants(code: &str) -> Vec<(String, Vec<String>)> {
    let mut enums = Vec::new();
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.split("enum ").nth(1).filter(|_| line.trim_end().ends_with('{')) else {
            continue;
        };
        let name = rest.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or_default();
        let indent = line.len() - line.trim_start().len();
        let mut variants = Vec::new();
        for body in lines.by_ref() {
            if body.trim() == "}" && body.len() - body.trim_start().len() == indent {
                break;
            }
            let word: String = body.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !word.is_empty() {
                variants.push(word);
            }
        }
        enums.push((name.to_owned(), variants));
    }
    enums
}

/// The accumulating operations and the comparisons are defined once, in
/// tensor-ops: the macros parse to them, tensor-core applies them and the
/// GPU's kernels take them as compile-time parameters. No crate declares
/// an enum that mirrors either.
#[test]
fn operations_and_comparisons_are_defined_once() {
    const OPS: [&str; 11] = ["Add", "Sub", "Mul", "Div", "Pow", "Min", "Max", "Rem", "BitAnd", "BitOr", "BitXor"];
    const COMPARES: [&str; 6] = ["Lt", "Le", "Gt", "Ge", "Eq", "Ne"];
    let mirrors = |variants: &[String]| {
        let shared = |names: &[&str]| variants.iter().filter(|v| names.contains(&v.as_str())).count();
        shared(&OPS) >= 4 || shared(&COMPARES) >= 4
    };
    let mut found = Vec::new();
    let mut defined = 0;
    for file in library_sources() {
        let code = code_outside_tests(&fs::read_to_string(&file).unwrap());
        let at = file.strip_prefix(workspace()).unwrap().display().to_string();
        for (name, variants) in enum_variants(&code).into_iter().filter(|(_, variants)| mirrors(variants)) {
            if at == "tensor-ops/src/lib.rs" {
                defined += 1;
            } else {
                found.push(format!("{at}: enum {name} {variants:?}"));
            }
        }
    }
    assert!(found.is_empty(), "enums that mirror tensor-ops' Op or Compare: {found:#?}");
    assert_eq!(defined, 2, "tensor-ops defines Op and Compare");
    // The check itself works.
    let mirror = "pub(crate) enum Predicate {\n    Lt,\n    Le,\n    Gt(u8),\n    Ge,\n}\n";
    assert_eq!(
        enum_variants(mirror),
        [("Predicate".to_owned(), vec!["Lt".into(), "Le".into(), "Gt".into(), "Ge".into()])]
    );
}
