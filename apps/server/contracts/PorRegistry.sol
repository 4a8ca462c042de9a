// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20Decimals {
    function decimals() external view returns (uint8);
}

/// The anchor of HOPE's proof of liabilities: each snapshot's Merkle-sum root and totals, the
/// ledger position its books were read at and its number of leaves, the token its reserves are
/// counted in (with that token's decimals, read here) and the set of reserve addresses,
/// published once by the platform and never changed. Verifiers read all of it from here, so the
/// platform cannot show different roots, totals or reserves to different users.
///
/// The rules a publisher cannot bend, whatever its servers say:
/// - one commitment per moment: ids go up by one, each at a block later than the one before;
/// - never on demand: at least `minInterval` seconds between two publications, so a snapshot
///   cannot be made fresh for whoever is about to check;
/// - never from the past: block B is at most `maxBlockAge` blocks before the publication;
/// - never on borrowed money: the reserves are counted again at a check block the chain picks
///   after the publication (from the publication block's hash, within `checkWindow` blocks),
///   unknown to the publisher when it sends the snapshot.
/// There is no immutable value in the code: every deployment's runtime code is the same bytes,
/// so a verifier can pin its hash.
contract PorRegistry {
    struct Snapshot {
        bytes32 root;
        uint256 totalUsdt;
        uint256 totalHope;
        uint64 blockNumber;
        uint64 publishedAt;
        address token;
        uint8 tokenDecimals;
        uint64 publishedBlock;
        uint64 ledgerCut;
        uint64 leafCount;
    }

    /// The layout of this registry; a verifier refuses another.
    uint8 public constant VERSION = 3;
    /// Reserve addresses a snapshot may list at most.
    uint256 public constant MAX_RESERVES = 16;
    /// A tree holds at most 2^32 leaves.
    uint64 public constant MAX_LEAVES = 2 ** 32;

    address public owner;
    /// Seconds at least between two publications.
    uint64 public minInterval;
    /// Blocks at most between block B and the publication.
    uint64 public maxBlockAge;
    /// The check block lies in the `checkWindow` blocks after the publication block.
    uint64 public checkWindow;
    /// The id of the newest snapshot (0 before the first); each new one is the next.
    uint64 public latestId;
    mapping(uint64 => Snapshot) private snapshotById;
    mapping(uint64 => address[]) private reserveSets;

    event SnapshotPublished(
        uint64 indexed id,
        bytes32 root,
        uint256 totalUsdt,
        uint256 totalHope,
        uint64 blockNumber,
        address token,
        uint8 tokenDecimals,
        uint64 ledgerCut,
        uint64 leafCount,
        address[] reserves
    );

    constructor(uint64 minInterval_, uint64 maxBlockAge_, uint64 checkWindow_) {
        require(maxBlockAge_ > 0 && maxBlockAge_ <= 100_000, "max block age");
        require(checkWindow_ > 0 && checkWindow_ <= 100_000, "check window");
        owner = msg.sender;
        minInterval = minInterval_;
        maxBlockAge = maxBlockAge_;
        checkWindow = checkWindow_;
    }

    /// Snapshot `id` (a zero root when none was published under it).
    function snapshots(uint64 id) external view returns (Snapshot memory) {
        return snapshotById[id];
    }

    /// The reserve addresses of snapshot `id`, in ascending order.
    function reservesOf(uint64 id) external view returns (address[] memory) {
        return reserveSets[id];
    }

    /// The rules every snapshot was published under: (minInterval, maxBlockAge, checkWindow).
    function rules() external view returns (uint64, uint64, uint64) {
        return (minInterval, maxBlockAge, checkWindow);
    }

    /// The block the reserves of snapshot `id` are counted at again: one of the `checkWindow`
    /// blocks after its publication block, picked by that block's hash. Readable from the block
    /// after the publication for 256 blocks (the EVM keeps no older hashes); anyone can compute it
    /// from the block's hash at any time.
    function checkBlockOf(uint64 id) external view returns (uint64) {
        uint64 published = snapshotById[id].publishedBlock;
        require(published != 0, "no such snapshot");
        bytes32 hash = blockhash(published);
        require(hash != bytes32(0), "publication block hash not readable here");
        return published + 1 + uint64(uint256(hash) % checkWindow);
    }

    /// Appends snapshot `latestId + 1`, taken at `blockNumber` (a past block later than the
    /// previous snapshot's and at most `maxBlockAge` blocks old), of the books at ledger
    /// position `ledgerCut` in a tree of `leafCount` leaves,
    /// whose reserves are `reserves` (ascending, so none twice) holding `token`; only the owner
    /// publishes, and not within `minInterval` seconds of the previous publication.
    function publish(
        uint64 id,
        bytes32 root,
        uint256 totalUsdt,
        uint256 totalHope,
        uint64 blockNumber,
        address token,
        uint64 ledgerCut,
        uint64 leafCount,
        address[] calldata reserves
    ) external {
        require(msg.sender == owner, "only owner");
        require(id == latestId + 1, "id not next");
        require(root != bytes32(0), "empty root");
        require(blockNumber < block.number, "block not past");
        require(blockNumber + maxBlockAge >= block.number, "block too old");
        require(leafCount > 0 && leafCount <= MAX_LEAVES, "leaf count");
        if (latestId != 0) {
            Snapshot storage previous = snapshotById[latestId];
            require(blockNumber > previous.blockNumber, "block not after the previous snapshot");
            require(block.timestamp >= previous.publishedAt + minInterval, "too soon");
        }
        require(token.code.length > 0, "token has no code");
        require(reserves.length > 0 && reserves.length <= MAX_RESERVES, "reserve count");
        for (uint256 i = 1; i < reserves.length; i++) {
            require(reserves[i - 1] < reserves[i], "reserves not ascending");
        }
        uint8 decimals = IERC20Decimals(token).decimals();
        latestId = id;
        snapshotById[id] = Snapshot(
            root,
            totalUsdt,
            totalHope,
            blockNumber,
            uint64(block.timestamp),
            token,
            decimals,
            uint64(block.number),
            ledgerCut,
            leafCount
        );
        reserveSets[id] = reserves;
        emit SnapshotPublished(
            id,
            root,
            totalUsdt,
            totalHope,
            blockNumber,
            token,
            decimals,
            ledgerCut,
            leafCount,
            reserves
        );
    }
}
