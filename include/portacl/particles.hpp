// SPDX-License-Identifier: Apache-2.0
/// \file
/// The particle family: bonds, Lennard-Jones forces, neighbour lists,
/// molecular dynamics, N-body, radial distribution, and N-body over a device group.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"
#include "portacl/plan.hpp"
#include "portacl/vectors.hpp"

// ---- neighbours --------------------------------------------------------------
/// Neighbour lists in a periodic box: for every particle, the particles
/// within cutoff + skin of it by the minimum image: a pair is listed when
/// the float square of its distance is below the float square of cutoff +
/// skin (a pair exactly at cutoff + skin is not listed). Positions are 4 floats
/// a particle, (x, y, z, w) (w is not read: a type or a mass); a particle
/// may lie outside the box, its image in the box counts, but no further
/// than two box lengths: each coordinate in [-2L, 3L). Further out, the
/// float difference of two coordinates loses the digits that place a
/// particle; such positions, and ones that are not finite, are refused
/// (checked on the device, one small read), naming the first. Wrap
/// positions into the box first (x - L floor(x / L)); LennardJonesMd does
/// at every rebuild.
///
/// The search is one of two, by the plan (NeighbourList::plan() says which
/// and why): cells of at least cutoff + skin, particles sorted by cell with
/// the radix sort and each particle's 27 neighbouring cells searched (O(n),
/// where the box holds at least 3 cells a side), or every pair tested
/// (O(n^2), smaller boxes and small n).
///
/// A list holds `capacity` neighbours a particle. Where a particle has more,
/// the build notices, grows the capacity to fit the fullest and builds
/// again (retries() counts it), so a list is never cut short. Full lists
/// hold both (i, j) and (j, i); half lists each pair once, j > i.
/// needs_rebuild() tells, on the device, whether any particle has moved
/// more than half the skin since the build.
///
/// Errors, before any launch: a cutoff that is not above 0, a negative
/// skin, a box length that is not above 0 or not finite, cutoff + skin
/// above half the shortest box length (the minimum image would miss pairs),
/// positions that are not 4 floats a particle, buffers of another context;
/// on the device, before the search: a position that is not finite or lies
/// outside [-2L, 3L).
namespace portacl {

/// A periodic box [0, x) x [0, y) x [0, z). Lengths are double: a double
/// run (LennardJonesMdDouble, lennard_jones in double) takes them whole; a
/// float run and the neighbour search round them to float once.
struct PeriodicBox {
  double x = 0;  ///< length along x
  double y = 0;  ///< length along y
  double z = 0;  ///< length along z
};

/// How neighbours are found: binned into cells of the cutoff's size, every
/// pair, or as the rules choose (automatic).
enum class NeighbourSearch { automatic, cells, all_pairs };

/// What a neighbour list holds and how it is built.
struct NeighbourOptions {
  double cutoff = 0;                                    ///< the interaction's range, > 0
  double skin = 0.3;                                    ///< extra range, so the list serves several steps
  bool half = false;                                    ///< each pair once (j > i) instead of both ways
  std::size_t capacity = 0;                             ///< first capacity a particle; 0: from the density
  NeighbourSearch search = NeighbourSearch::automatic;  ///< how neighbours are found
  PlanOptions plan;                                     ///< for the search's launches
};

/// Each particle's neighbours within cutoff + skin, on the device (above).
class NeighbourList {
 public:
  /// An empty list on ctx's device; build() fills it. Errors: a cutoff not a finite length above 0, a negative skin.
  NeighbourList(Context& ctx, const NeighbourOptions& options);
  ~NeighbourList();
  NeighbourList(NeighbourList&&) noexcept;             ///< takes the other's list
  NeighbourList& operator=(NeighbourList&&) noexcept;  ///< takes the other's list

  /// Builds the list of `positions` (4 floats a particle) in `box`.
  void build(const Buffer<float>& positions, const PeriodicBox& box);
  /// The same from double positions, narrowed to float on the device for
  /// the search (the skin covers float rounding of a few parts in 10^7
  /// of the box); built_positions() then holds the narrowed copy.
  void build(const Buffer<double>& positions, const PeriodicBox& box);
  /// True when a particle has moved more than half the skin since the build
  /// (by the minimum image), checked on the device; one small read.
  bool needs_rebuild(const Buffer<float>& positions) const;
  /// As above, from double positions.
  bool needs_rebuild(const Buffer<double>& positions) const;
  /// The positions at the last build, which needs_rebuild compares with
  /// (4 floats a particle): for an integrator that folds the check into
  /// its own kernel, as LennardJonesMd does. Throws when never built.
  const Buffer<float>& built_positions() const;

  std::size_t particles() const;   ///< at the last build
  std::size_t capacity() const;    ///< neighbours a particle the storage holds
  std::size_t retries() const;     ///< builds repeated for a larger capacity, over the list's life
  bool half() const;               ///< each pair once (j > i)
  double cutoff() const;           ///< the interaction's range (the skin beyond it)
  const PeriodicBox& box() const;  ///< at the last build
  /// counts[i]: particle i's neighbours.
  const Buffer<std::uint32_t>& counts() const;
  /// Neighbour k of particle i is at neighbours()[slot(i, k)].
  const Buffer<std::uint32_t>& neighbours() const;
  std::size_t slot(std::size_t i, std::size_t k) const;  ///< where neighbour k of i is
  /// True when slot(i, k) is k n + i (GPUs), false for i capacity + k.
  bool slots_by_neighbour() const;
  /// Every (i, j) the list holds, read back to the host, in order of i.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs() const;
  /// The plan of the last build's search: its decisions say which search,
  /// which layout of the lists and why.
  const LaunchPlan& plan() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace portacl

// ---- bonds -------------------------------------------------------------------
/// Harmonic bond stretching in a periodic box: bond (i, j) of type t has
/// E = 0.5 k_t (r - r0_t)^2 with r the minimum-image distance, and pulls
/// i and j together when stretched (r > r0), apart when compressed. The
/// forces are computed a bond at a time into the bond's own slot, then each
/// atom gathers its bonds' slots (no atomics): the atoms' bonds are found
/// once, when the Bonds are made.
///
/// Errors, when the Bonds are made: a bond naming an atom past the atoms
/// or the same atom twice, a type past the types, k below 0 or r0 not
/// finite, more bonds at an atom than `max_per_atom`; when adding forces:
/// positions or forces that are not 4 floats for each of the atoms,
/// buffers of another context or sharing memory, a box length not above 0.
namespace portacl {

/// The bonds' parameters, one entry a type.
struct BondTypes {
  std::vector<float> k{1.0f};   ///< stiffness a type
  std::vector<float> r0{1.0f};  ///< rest length a type
};

/// A set of harmonic bonds, their atoms' bonds found once (above).
class Bonds {
 public:
  /// `pairs` holds 2 atom indices a bond, `types` one type a bond.
  Bonds(Context& ctx, std::size_t atoms, const std::vector<std::uint32_t>& pairs,
        const std::vector<std::uint32_t>& types, const BondTypes& bond_types, std::size_t max_per_atom);
  ~Bonds();
  Bonds(Bonds&&) noexcept;  ///< takes the other's bonds

  /// forces[4a..4a+3] += (F_a, e_a), e_a half the energy of a's bonds: the
  /// sum of e over the atoms is the bonds' energy.
  LaunchPlan add_forces(const Buffer<float>& positions, const PeriodicBox& box, Buffer<float>& forces,
                        const PlanOptions& options = {}) const;
  std::size_t bonds() const;  ///< how many

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace portacl

// ---- lennard jones -----------------------------------------------------------
/// Lennard-Jones forces and energies over a neighbour list, in its periodic
/// box: for each listed pair closer than the cutoff,
///   E(r) = 4 eps ((sigma / r)^12 - (sigma / r)^6) - E_shift,
/// eps and sigma those of the two particles' types, E_shift = E(cutoff)
/// without the shift where `shift` is set (the energy then falls to 0 at the
/// cutoff), else 0. Positions are 4 floats a particle, the fourth its type
/// (0, 1, ..., types - 1, stored as a float). forces is 4 floats a particle:
/// (fx, fy, fz, e) with e half the energy of the particle's pairs, so the
/// potential energy is the sum of e.
///
/// A full list gives each particle its own sum (no atomics, every pair
/// computed twice); a half list computes a pair once and adds its share to
/// the other particle with atomic adds, in an order that varies from run to
/// run (the plan says which).
///
/// Errors, before the force launch: a list never built or built for
/// another number of particles, a cutoff not above 0 or beyond the list's
/// cutoff + skin (the list must cover it), tables that are not types x
/// types, not symmetric, a sigma not above 0 or an epsilon below 0, a
/// particle whose type is not one of the types (checked on the device, one
/// small read), buffers of another context or sharing memory.
namespace portacl {

/// The parameters are double: a double run takes them whole, a float run
/// rounds its table (4 eps sigma^12, 4 eps sigma^6, the shift, each made
/// in double) and the cutoff to float once.
struct LennardJones {
  std::size_t types = 1;             ///< particle types (the fourth position value)
  std::vector<double> epsilon{1.0};  ///< types x types, row-major, symmetric
  std::vector<double> sigma{1.0};    ///< types x types, row-major, symmetric
  double cutoff = 2.5;               ///< no force beyond it
  bool shift = true;                 ///< shift the potential to 0 at the cutoff
};

/// T is float or double (positions, forces and the arithmetic; the list
/// is built from float positions either way, see NeighbourList::build).
/// In double, only full lists: a half list's atomic shares are float
/// compare-and-swap (an error otherwise).
template <class T, class = only_for<T, float, double>>
LaunchPlan lennard_jones(Context& ctx, const Buffer<T>& positions, const NeighbourList& list, const LennardJones& lj,
                         Buffer<T>& forces, const PlanOptions& options = {});

}  // namespace portacl

// ---- molecular dynamics ------------------------------------------------------
/// A Lennard-Jones molecular-dynamics run in the NVE ensemble: velocity
/// Verlet steps of dt (v += f/m dt/2; x += v dt; forces; v += f/m dt/2)
/// with the neighbour list rebuilt whenever a particle has moved more than
/// half the skin since the last build (checked on the device by the drift
/// itself, one small read a step), positions wrapped into the box at each
/// rebuild. The Lennard-Jones pair table is made once, and the particles'
/// types are checked once at each run() (the steps keep them; a caller
/// may have changed the positions in between).
/// Positions are 4 floats a particle (x, y, z, type), velocities 4 floats
/// (vx, vy, vz, unused); both stay the caller's buffers and are updated in
/// place. Masses are per type.
///
/// Errors, at construction: a time step not finite or not above 0, masses
/// not one per type or not above 0, and whatever the neighbour list and
/// the Lennard-Jones forces refuse (box, cutoff, tables, types); at run(),
/// before any step, a particle whose type is not one of the types.
namespace portacl {

/// Double, as the box and the Lennard-Jones tables are: a double run
/// steps with dt and the masses whole, a float run rounds them once.
struct MdOptions {
  double dt = 0.005;                ///< the time step
  std::vector<double> masses{1.0};  ///< one a type
  double skin = 0.3;                ///< the neighbour list's extra range
  /// Half lists with atomic shares (true) or full lists (false); unset,
  /// the device class decides (rule particles.md-list): half on CPUs, where
  /// the shares rarely collide, full on GPUs, where they contend. Double
  /// runs take full lists only.
  std::optional<bool> half_list;
  PlanOptions plan;  ///< for every launch of a step
};

/// A system's energy, summed in double.
struct MdEnergy {
  double kinetic = 0;                                   ///< sum of m v^2 / 2
  double potential = 0;                                 ///< the pair energies
  double total() const { return kinetic + potential; }  ///< conserved by NVE, to the step's error
};

/// T is the precision of the positions, velocities, forces and their
/// arithmetic: float, or double (the neighbour list searches narrowed
/// float copies either way, and double runs take full lists only).
template <class T>
class BasicLennardJonesMd {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value,
                "molecular dynamics runs in float or double");

 public:
  /// A run on the caller's `positions` and `velocities` (updated in place);
  /// the first list and forces are made here.
  BasicLennardJonesMd(Context& ctx, Buffer<T>& positions, Buffer<T>& velocities, const PeriodicBox& box,
                      const LennardJones& lj, const MdOptions& options = {});
  ~BasicLennardJonesMd();
  BasicLennardJonesMd(BasicLennardJonesMd&&) noexcept;  ///< takes the other's run

  /// `steps` velocity-Verlet steps.
  void run(std::size_t steps);
  /// The kinetic and potential energy now (reads the velocities and the
  /// forces' energies back to the host, sums in double).
  MdEnergy energy() const;
  std::size_t steps_done() const;     ///< over every run()
  std::size_t rebuilds() const;       ///< neighbour-list builds, the first included
  const NeighbourList& list() const;  ///< the current neighbour list
  const Buffer<T>& forces() const;    ///< (fx, fy, fz, e) a particle, for the current positions

 private:
  struct State;
  std::unique_ptr<State> s_;
};

using LennardJonesMd = BasicLennardJonesMd<float>;         ///< in float
using LennardJonesMdDouble = BasicLennardJonesMd<double>;  ///< in double

extern template class BasicLennardJonesMd<float>;
extern template class BasicLennardJonesMd<double>;

}  // namespace portacl

// ---- nbody -------------------------------------------------------------------
/// All-pairs N-body gravity with Plummer softening:
///   a_i   = G sum_j m_j d_ij / (|d_ij|^2 + eps^2)^(3/2),  d_ij = x_j - x_i
///   phi_i = -G sum_(j != i) m_j / (|d_ij|^2 + eps^2)^(1/2)
/// and a kick-drift-kick leapfrog (velocity Verlet) step, in float or
/// double (T: the buffers and the arithmetic; double where the device has
/// fp64). Bodies are 4 T each, (x, y, z, m); accelerations (ax, ay, az,
/// phi); velocities (vx, vy, vz, unused). The potential energy is 0.5
/// sum_i m_i phi_i (nbody_energy). The plan says how the pairs are walked:
/// tiles of bodies in local memory on GPUs, the bodies as separate x, y, z
/// and m arrays in vectors on CPUs (made from yours on each call, an O(n)
/// copy).
///
/// Errors, before any launch: softening not above 0 (the i = j term would
/// be 0/0), a buffer length that is not 4 per body, accelerations sharing
/// memory with bodies or velocities, buffers of another context, a time
/// step that is not finite.
namespace portacl {

/// The N-body force's parameters.
struct NbodyOptions {
  /// eps, > 0: no default, a length of the user's problem. A float run
  /// rounds it (and G) to float once.
  double softening = 0;
  double gravity = 1;     ///< G
  bool potential = true;  ///< also each body's potential (one more multiply-add a pair)
  PlanOptions plan;       ///< for the force's launch
};

/// accelerations[4i..4i+3] = (a_i, phi_i), phi_i 0 unless options.potential.
template <class T, class = only_for<T, float, double>>
LaunchPlan nbody_accelerations(Context& ctx, const Buffer<T>& bodies, Buffer<T>& accelerations,
                               const NbodyOptions& options);

/// One leapfrog step of dt (rounded to T once): v += a dt/2; x += v dt;
/// a = a(x); v += a dt/2. `accelerations` must hold those of the current
/// positions (from nbody_accelerations or the step before); all three
/// move to t + dt.
template <class T, class = only_for<T, float, double>>
LaunchPlan nbody_step(Context& ctx, Buffer<T>& bodies, Buffer<T>& velocities, Buffer<T>& accelerations, double dt,
                      const NbodyOptions& options);

/// Kinetic and potential energy from host copies of the three arrays (the
/// potential from the stored phi_i), summed in double.
struct NbodyEnergy {
  double kinetic = 0;                                   ///< sum of m v^2 / 2
  double potential = 0;                                 ///< sum of m phi / 2 (each pair once)
  double total() const { return kinetic + potential; }  ///< conserved, to the step's error
};
/// The energy of the three host arrays (above).
template <class T, class = only_for<T, float, double>>
NbodyEnergy nbody_energy(const std::vector<T>& bodies, const std::vector<T>& velocities,
                         const std::vector<T>& accelerations);

}  // namespace portacl

// ---- rdf ---------------------------------------------------------------------
/// The radial distribution function of particles in a periodic box: every
/// pair's minimum-image distance counted into `shells` shells of equal
/// width up to r_max (pairs at r_max or beyond are dropped), and
/// g(r) = count / (N (N - 1) / 2 x shell volume / box volume): 1 for an
/// ideal gas. g is only meaningful up to half the shortest box length;
/// beyond it a shell is not whole inside the minimum image. The counting
/// follows the histogram's rules (local-memory bins on GPUs, per-work-item
/// rows on CPUs).
///
/// Errors, before any launch: r_max not above 0 or not finite, no shells
/// or more than 2^20, more than 92681 particles (pair counts are 32-bit),
/// positions that are not 4 floats a particle, a box length not above 0;
/// on the device, before the count: a position that is not finite or lies
/// outside [-2L, 3L) (neighbours.hpp says why).
namespace portacl {

/// The most particles radial_distribution takes: N (N - 1) / 2 pairs must
/// count in 32 bits.
constexpr std::size_t kRdfMostParticles = 92681;

/// The shells radial_distribution counts into.
struct RdfOptions {
  float r_max = 0;           ///< the outer radius, > 0
  std::size_t shells = 100;  ///< shells of r_max / shells each
  PlanOptions plan;          ///< for the counting launch
};

/// The counts and g(r) of every shell.
struct RadialDistribution {
  std::vector<std::uint32_t> counts;  ///< pairs a shell
  std::vector<double> r;              ///< shell centres
  std::vector<double> g;              ///< g(r) a shell
  LaunchPlan plan;                    ///< the counting launch's plan
};

/// g(r) of `positions` (4 floats a particle) in `box` (above).
RadialDistribution radial_distribution(Context& ctx, const Buffer<float>& positions, const PeriodicBox& box,
                                       const RdfOptions& options);

}  // namespace portacl

// ---- group nbody -------------------------------------------------------------
/// All-pairs N-body (nbody.hpp) on a device group: each member owns a
/// contiguous slice of the bodies (rule group.split: weigh a faster device
/// more) and keeps a copy of every position. A leapfrog step is: each
/// member kicks and drifts its own slice; the new positions of every slice
/// travel to every other member through pinned host memory (n x 16 bytes a
/// member a step, against n^2 pair interactions: the exchange's share
/// falls as n grows); each member sums the forces on its slice over all
/// bodies and kicks again.
///
/// Results: bit for bit those of nbody_step on one device of the same kind
/// (each body's sum runs over all bodies in the same order in both).
namespace portacl {

/// All-pairs N-body over a device group (above).
class GroupNbody {
 public:
  /// Bodies (x, y, z, m) and velocities (vx, vy, vz, unused), 4 floats a
  /// body, split over `group` by its weights; the accelerations of these
  /// positions are computed here, so that step() can follow. Errors: as
  /// nbody_accelerations' (softening, lengths), and velocities of another
  /// length than bodies.
  GroupNbody(DeviceGroup& group, const std::vector<float>& bodies, const std::vector<float>& velocities,
             const NbodyOptions& options);
  ~GroupNbody();
  GroupNbody(const GroupNbody&) = delete;
  GroupNbody& operator=(const GroupNbody&) = delete;

  /// One leapfrog step of dt (a finite number), as nbody_step.
  void step(float dt);
  /// Seconds in the position exchange: from the moment every slice had
  /// drifted to the moment every member holds every position, summed.
  double exchange_seconds() const;
  /// A line a member (its slice), and the split's reason.
  std::string describe() const;
  /// The current state, read back from every member, 4 floats a body.
  std::vector<float> bodies() const;
  std::vector<float> velocities() const;     ///< as bodies(), the velocities
  std::vector<float> accelerations() const;  ///< as bodies(), the accelerations and potentials

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl
