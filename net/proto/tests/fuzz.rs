//! A short fuzzing run of the state machine on hostile input (the long run is
//! the `junqi-net-fuzz` binary).

#[test]
fn sessions_survive_hostile_input() {
    assert_eq!(junqi_proto::testing::fuzz_sessions(3000, 7), 3000);
}
