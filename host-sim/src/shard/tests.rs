use super::*;

#[test]
fn shards_parse_as_k_of_n_and_refuse_the_rest() {
    assert_eq!("2/8".parse::<Shard>().unwrap(), Shard { index: 2, count: 8 });
    assert_eq!("1/1".parse::<Shard>().unwrap().to_string(), "1/1");
    for bad in ["0/4", "5/4", "1/0", "3", "a/b", "-1/4", ""] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
}

#[test]
fn the_split_balances_expected_costs_and_covers_every_point_once() {
    let costs = [64, 1, 1, 2, 4, 8, 16, 32, 64, 2, 4, 8];
    let split = split(&costs, 4);
    assert_eq!(split.len(), costs.len());
    assert!(split.iter().all(|&s| s < 4));
    let mut loads = [0u64; 4];
    for (point, shard) in split.iter().enumerate() {
        loads[*shard as usize] += costs[point];
    }
    assert_eq!(loads.iter().sum::<u64>(), costs.iter().sum::<u64>());
    // LPT: 64, 64, 32, 16+8+... ; no shard above the largest point plus the mean.
    let most = *loads.iter().max().unwrap();
    assert!(most <= 64, "{loads:?}");
    assert_eq!(split, super::split(&costs, 4), "the same costs split the same way");
}

#[test]
fn one_shard_takes_every_point_and_more_shards_than_points_leave_some_empty() {
    assert!(split(&[3, 2, 1], 1).iter().all(|&s| s == 0));
    let wide = split(&[3, 2, 1], 5);
    let mut used: Vec<u32> = wide.clone();
    used.sort_unstable();
    used.dedup();
    assert_eq!(used.len(), 3);
}
