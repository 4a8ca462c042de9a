// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20Decimals {
    function decimals() external view returns (uint8);
}

/// The anchor of HOPE's proof of liabilities: each snapshot's Merkle-sum root and totals, the
/// token its reserves are counted in (with that token's decimals, read here) and the set of
/// reserve addresses, published once by the platform and never changed. Verifiers read all of
/// it from here, so the platform cannot show different roots, totals or reserves to different
/// users. One commitment per moment: ids go up by one, and each snapshot is taken at a block
/// later than the one before, so two snapshots can never split the users of one moment.
contract PorRegistry {
    struct Snapshot {
        bytes32 root;
        uint256 totalUsdt;
        uint256 totalHope;
        uint64 blockNumber;
        uint64 publishedAt;
        address token;
        uint8 tokenDecimals;
    }

    /// The layout of this registry; a verifier refuses another.
    uint8 public constant VERSION = 2;
    /// Reserve addresses a snapshot may list at most.
    uint256 public constant MAX_RESERVES = 16;

    address public immutable owner;
    /// The id of the newest snapshot (0 before the first); each new one is the next.
    uint64 public latestId;
    mapping(uint64 => Snapshot) public snapshots;
    mapping(uint64 => address[]) private reserveSets;

    event SnapshotPublished(
        uint64 indexed id,
        bytes32 root,
        uint256 totalUsdt,
        uint256 totalHope,
        uint64 blockNumber,
        address token,
        uint8 tokenDecimals,
        address[] reserves
    );

    constructor() {
        owner = msg.sender;
    }

    /// The reserve addresses of snapshot `id`, in ascending order.
    function reservesOf(uint64 id) external view returns (address[] memory) {
        return reserveSets[id];
    }

    /// Appends snapshot `latestId + 1`, taken at `blockNumber` (a past block later than the
    /// previous snapshot's), whose reserves are `reserves` (ascending, so none twice) holding
    /// `token`; only the owner publishes.
    function publish(
        uint64 id,
        bytes32 root,
        uint256 totalUsdt,
        uint256 totalHope,
        uint64 blockNumber,
        address token,
        address[] calldata reserves
    ) external {
        require(msg.sender == owner, "only owner");
        require(id == latestId + 1, "id not next");
        require(root != bytes32(0), "empty root");
        require(blockNumber < block.number, "block not past");
        require(
            latestId == 0 || blockNumber > snapshots[latestId].blockNumber,
            "block not after the previous snapshot"
        );
        require(token.code.length > 0, "token has no code");
        require(reserves.length > 0 && reserves.length <= MAX_RESERVES, "reserve count");
        for (uint256 i = 1; i < reserves.length; i++) {
            require(reserves[i - 1] < reserves[i], "reserves not ascending");
        }
        uint8 decimals = IERC20Decimals(token).decimals();
        latestId = id;
        snapshots[id] = Snapshot(
            root,
            totalUsdt,
            totalHope,
            blockNumber,
            uint64(block.timestamp),
            token,
            decimals
        );
        reserveSets[id] = reserves;
        emit SnapshotPublished(id, root, totalUsdt, totalHope, blockNumber, token, decimals, reserves);
    }
}
