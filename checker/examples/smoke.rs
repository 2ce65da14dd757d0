use kcert_checker::exec::Mode;
use kcert_checker::instance::Instance;
fn main() {
    for p in std::env::args().skip(1) {
        match Instance::load(p.as_ref()) {
            Err(e) => println!("{p}: ERROR {e}"),
            Ok(i) => match i.run(Mode::Symbolic, &Default::default(), &Default::default()) {
                Err(e) => println!("{p}: EXEC ERROR {e}"),
                Ok(o) => {
                    println!(
                        "{p}: {} findings, {} lane instr, {} terms",
                        o.findings.len(),
                        o.lane_instructions,
                        o.arena.len()
                    );
                    for f in &o.findings {
                        print!("  {f}");
                    }
                }
            },
        }
    }
}
