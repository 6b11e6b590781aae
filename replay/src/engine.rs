//! The engines: each model's kernel at the sizes the host compiles, rebuilt from a
//! log header or a command line, one submodule per model ([`service_level`],
//! [`reservation`], [`tiers`], [`sla`]), and what they share: [`Stepper`], any
//! [`kernel::contract::Kernel`] behind a trait object, [`EngineError`] and the
//! big-stack thread that builds a kernel by value.
//!
//! A model's engine file keeps only what is its own: its compiled sizes, the choice
//! among them from a header or a command line, its own errors ([`EngineError::Model`])
//! and the accessors its hosts read (a queue's length, the pending batch).

use kernel::contract::Kernel;

crate::for_each_model!(crate::model_modules!(pub));

/// Stack of the thread that builds a kernel. The largest kernel (the reservation
/// kernel with the largest running set, 6.7 MiB since the calendar holds its block words) is
/// built by value before it is boxed, and an unoptimised build keeps about nine copies
/// on the stack, which overflowed 64 MiB; only the pages touched are committed.
const STACK_BYTES: usize = 128 << 20;

/// What an engine needs of a kernel of one model (configuration `C`, events `E`,
/// decisions `D`, outcomes `O`), whatever its compiled sizes: [`Kernel`] made object
/// safe. Every kernel is one, so a model's engine boxes any of its sizes as one type.
pub trait Stepper<C, E, D, O>: Send {
    /// Handles one event and appends the decisions it caused to `out`: a `Vec` rather
    /// than a `dyn` sink, so that the kernel's sink is a known closure, not one
    /// indirect call per decision.
    fn step(&mut self, event: E, out: &mut Vec<D>) -> O;
    fn config(&self) -> &C;
    /// `size_of` the kernel.
    fn state_bytes(&self) -> usize;
    /// The compiled capacities, named ([`Kernel::CAPACITIES`]).
    fn capacities(&self) -> &'static [(&'static str, usize)];
}

impl<K: Kernel + Send> Stepper<K::Config, K::Event, K::Decision, K::Outcome> for K {
    fn step(&mut self, event: K::Event, out: &mut Vec<K::Decision>) -> K::Outcome {
        Kernel::step(self, event, &mut |d| out.push(d))
    }

    fn config(&self) -> &K::Config {
        Kernel::config(self)
    }

    fn state_bytes(&self) -> usize {
        std::mem::size_of::<K>()
    }

    fn capacities(&self) -> &'static [(&'static str, usize)] {
        K::CAPACITIES
    }
}

/// Why an engine cannot be built. What only one model can refuse (its configuration,
/// a size only it has) is that model's own error, inside [`Self::Model`].
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A log header names a capacity of `model`'s kernel that this build does not have.
    #[error("the log's {model} kernel has {found} {what}; this build has {compiled}")]
    Capacity { model: &'static str, what: &'static str, found: u64, compiled: u64 },
    /// The model's own error, for example `reservation::ModelError`.
    #[error(transparent)]
    Model(Box<dyn std::error::Error + Send + Sync>),
    #[error("cannot start the thread that builds the kernel: {0}")]
    Thread(std::io::Error),
}

impl EngineError {
    /// A model's own error.
    pub fn model(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::Model(Box::new(error))
    }

    /// The model's own error inside, if it is a `T`.
    pub fn model_error<T: std::error::Error + 'static>(&self) -> Option<&T> {
        match self {
            Self::Model(error) => error.downcast_ref(),
            _ => None,
        }
    }

    /// The first capacity `found` in a header that differs from the one `compiled` (in
    /// [`Kernel::CAPACITIES`]' order, with its name; `None`: checked elsewhere), as a
    /// [`Self::Capacity`] of `model`.
    pub(crate) fn first_differing(
        model: &'static str,
        compiled: &[(&'static str, usize)],
        found: &[Option<u64>],
    ) -> Result<(), Self> {
        let mut pairs = compiled.iter().zip(found).filter_map(|(&(what, c), &f)| Some((what, c as u64, f?)));
        match pairs.find(|&(_, compiled, found)| compiled != found) {
            Some((what, compiled, found)) => Err(Self::Capacity { model, what, found, compiled }),
            None => Ok(()),
        }
    }
}

/// What `make` gives, in a box allocated before it is called: an optimized build then
/// makes a kernel where it stays instead of on the stack and copying it (480 KB for the
/// service level's on 64 machines of 256 entries: `host-sim run` on a one-job trace
/// went from 634 page faults and 2.55 ms of CPU to 600 and 2.37).
pub(crate) fn boxed<T, E>(make: impl FnOnce() -> Result<T, E>) -> Result<Box<T>, E> {
    let slot = Box::<T>::new_uninit();
    Ok(Box::write(slot, make()?))
}

/// Runs `f` on a thread with a [`STACK_BYTES`] stack, so that building a kernel by
/// value works from any caller's thread.
pub(crate) fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T, EngineError> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("kernel-build".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, f)
            .map_err(EngineError::Thread)?;
        Ok(handle.join().unwrap_or_else(|payload| std::panic::resume_unwind(payload)))
    })
}
