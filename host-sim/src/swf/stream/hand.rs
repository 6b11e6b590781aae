//! How the reading thread hands its batches of jobs on, and the other work it may
//! take on meanwhile ([`Helper`]): `host-sim run` has its log encoded by the thread
//! that reads its trace, between batches and while the run has enough jobs, so
//! that two threads (the run's and the reading's) share two cores instead of four.

use std::sync::mpsc::{SyncSender, TrySendError};

use super::super::SwfError;
use crate::workload::Job;

/// Work the thread that reads a trace once does between its own: a log's encoding
/// (`record_log::LogWork`).
pub trait Helper: Send {
    /// Does what is ready, without waiting.
    fn help(&mut self);
    /// Waits a while for work and does what came; `false` once no more will come.
    fn wait(&mut self) -> bool;
    /// Does all the work left, waiting for it until no more will come.
    fn finish(self: Box<Self>);
}

/// What a batch of jobs, or the error that ended them, is sent as.
pub(super) type Batch = Result<Vec<Job>, SwfError>;

/// The sending end of the jobs, with the work done while the receiver has enough.
pub(super) struct Hand {
    sender: SyncSender<Batch>,
    pub helper: Option<Box<dyn Helper>>,
}

impl Hand {
    pub fn new(sender: SyncSender<Batch>, helper: Option<Box<dyn Helper>>) -> Self {
        Self { sender, helper }
    }

    /// Sends `batch`, working for the helper while the receiver has batches enough
    /// (and after); `Err` when the receiver is gone.
    pub fn send(&mut self, mut batch: Batch) -> Result<(), ()> {
        if let Some(helper) = &mut self.helper {
            loop {
                match self.sender.try_send(batch) {
                    Ok(()) => {
                        helper.help();
                        return Ok(());
                    }
                    Err(TrySendError::Full(back)) => batch = back,
                    Err(TrySendError::Disconnected(_)) => return Err(()),
                }
                // The receiver has jobs, and the work it makes of them comes: it is
                // done while there is no room (the receiver may wait for it).
                if !helper.wait() {
                    break;
                }
            }
        }
        self.sender.send(batch).map_err(drop)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::sync_channel;
    use std::sync::{Arc, Mutex};

    use super::*;

    /// A helper that counts its calls.
    #[derive(Default, Clone)]
    struct Counts(Arc<Mutex<[usize; 3]>>);

    impl Helper for Counts {
        fn help(&mut self) {
            self.0.lock().unwrap()[0] += 1;
        }
        fn wait(&mut self) -> bool {
            std::thread::sleep(std::time::Duration::from_millis(1));
            self.0.lock().unwrap()[1] += 1;
            true
        }
        fn finish(self: Box<Self>) {
            self.0.lock().unwrap()[2] += 1;
        }
    }

    /// With no room, the sender works for its helper until the receiver takes a
    /// batch, then sends; every batch arrives, in order.
    #[test]
    fn a_full_receiver_is_waited_for_with_the_helpers_work() {
        let (sender, receiver) = sync_channel(1);
        let counts = Counts::default();
        let mut hand = Hand::new(sender, Some(Box::new(counts.clone())));
        hand.send(Ok(vec![])).unwrap();
        let taker = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            receiver.iter().map(|batch: Batch| batch.unwrap().len()).collect::<Vec<_>>()
        });
        let job = Job { id: 1, release: 0, p: 1, procs: 1 };
        hand.send(Ok(vec![job])).unwrap();
        hand.send(Ok(vec![job, job])).unwrap();
        drop(hand);
        assert_eq!(taker.join().unwrap(), [0, 1, 2]);
        let [helped, waited, finished] = *counts.0.lock().unwrap();
        assert_eq!((helped, finished), (3, 0));
        assert!(waited >= 5, "waited {waited} times");
    }

    #[test]
    fn a_receiver_gone_is_an_error() {
        let (sender, receiver) = sync_channel(1);
        drop(receiver);
        let mut hand = Hand::new(sender, Some(Box::new(Counts::default())));
        assert!(hand.send(Ok(vec![])).is_err());
        let mut alone = Hand::new(sync_channel(1).0, None);
        assert!(alone.send(Ok(vec![])).is_err());
    }
}
