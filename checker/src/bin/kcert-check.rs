//! `kcert-check`: re-validates certificates (not yet: see the equivalence issue).

fn main() {
    eprintln!("kcert-check: certificate checking is not implemented yet");
    std::process::exit(2);
}
