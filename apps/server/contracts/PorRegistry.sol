// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The anchor of HOPE's proof of liabilities: each daily snapshot's Merkle-sum root and totals,
/// published once by the platform and never changed. Verifiers read the root from here, so the
/// platform cannot show different roots to different users.
contract PorRegistry {
    struct Snapshot {
        bytes32 root;
        uint256 totalUsdt;
        uint256 totalHope;
        uint64 blockNumber;
        uint64 publishedAt;
    }

    address public immutable owner;
    /// The id of the newest snapshot; ids only grow, so none is ever written twice.
    uint64 public latestId;
    mapping(uint64 => Snapshot) public snapshots;

    event SnapshotPublished(
        uint64 indexed id,
        bytes32 root,
        uint256 totalUsdt,
        uint256 totalHope,
        uint64 blockNumber
    );

    constructor() {
        owner = msg.sender;
    }

    /// Appends a snapshot taken at `blockNumber` (an earlier block); only the owner publishes.
    function publish(
        uint64 id,
        bytes32 root,
        uint256 totalUsdt,
        uint256 totalHope,
        uint64 blockNumber
    ) external {
        require(msg.sender == owner, "only owner");
        require(id > latestId, "id not increasing");
        require(root != bytes32(0), "empty root");
        require(blockNumber < block.number, "block not past");
        latestId = id;
        snapshots[id] = Snapshot(root, totalUsdt, totalHope, blockNumber, uint64(block.timestamp));
        emit SnapshotPublished(id, root, totalUsdt, totalHope, blockNumber);
    }
}
