//! Places for things held a while by position, few at a time: a place
//! freed (`None`) is filled again, so there are only as many places as
//! things held at once, not one per thing ever held.

/// Put `value` in the first free place of `slots` (a new place if none is
/// free) and return where.
pub(crate) fn fill_free<T>(slots: &mut Vec<Option<T>>, value: T) -> usize {
    match slots.iter().position(Option::is_none) {
        Some(free) => {
            slots[free] = Some(value);
            free
        }
        None => {
            slots.push(Some(value));
            slots.len() - 1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_freed_place_is_filled_before_a_new_one_is_made() {
        let mut slots = Vec::new();
        assert_eq!(fill_free(&mut slots, 'a'), 0);
        assert_eq!(fill_free(&mut slots, 'b'), 1);
        slots[0] = None;
        assert_eq!(fill_free(&mut slots, 'c'), 0);
        assert_eq!(fill_free(&mut slots, 'd'), 2);
        assert_eq!(slots, [Some('c'), Some('b'), Some('d')]);
    }
}
