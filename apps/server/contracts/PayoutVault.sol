// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The payout float of HOPE's withdrawals. Money leaves only through `pay`, called by the payer
/// key (the signer's hot wallet): each payout id once, within an hourly and a daily cap in token
/// units. The owner (a key kept offline) pauses it, rotates the payer, changes the caps and moves
/// funds to a cold address; it also vouches for the vault as a reserve (EIP-1271), since a
/// contract has no key of its own to sign with.
contract PayoutVault {
    /// The token paid out (USDT: its `transfer` may return no value).
    address public immutable token;
    address public owner;
    address public payer;
    bool public paused;
    uint256 public hourlyCap;
    uint256 public dailyCap;

    /// The block in which a payout id was paid; 0 while unpaid.
    mapping(bytes32 => uint256) public paidAt;

    /// Paid within the current hour and day (windows counted from the Unix epoch, UTC).
    uint256 public currentHour;
    uint256 public paidThisHour;
    uint256 public currentDay;
    uint256 public paidToday;

    event Paid(bytes32 indexed payoutId, address indexed to, uint256 amount);
    event PayerChanged(address indexed previous, address indexed next);
    event OwnerChanged(address indexed previous, address indexed next);
    event CapsChanged(uint256 hourlyCap, uint256 dailyCap);
    event PausedChanged(bool paused);
    event MovedToCold(address indexed to, uint256 amount);

    modifier onlyOwner() {
        require(msg.sender == owner, "only owner");
        _;
    }

    constructor(address token_, address owner_, address payer_, uint256 hourlyCap_, uint256 dailyCap_) {
        require(token_.code.length > 0, "token has no code");
        require(owner_ != address(0) && payer_ != address(0), "zero address");
        require(hourlyCap_ <= dailyCap_, "hourly cap above daily cap");
        token = token_;
        owner = owner_;
        payer = payer_;
        hourlyCap = hourlyCap_;
        dailyCap = dailyCap_;
        emit OwnerChanged(address(0), owner_);
        emit PayerChanged(address(0), payer_);
        emit CapsChanged(hourlyCap_, dailyCap_);
    }

    /// Pays `amount` token units to `to` for the withdrawal named by `payoutId`, once.
    function pay(bytes32 payoutId, address to, uint256 amount) external {
        require(msg.sender == payer, "only payer");
        require(!paused, "paused");
        require(payoutId != bytes32(0), "empty payout id");
        require(paidAt[payoutId] == 0, "payout id already paid");
        require(to != address(0) && to != address(this) && to != token, "bad recipient");
        require(amount > 0, "zero amount");
        uint256 hour = block.timestamp / 1 hours;
        uint256 day = block.timestamp / 1 days;
        if (hour != currentHour) {
            currentHour = hour;
            paidThisHour = 0;
        }
        if (day != currentDay) {
            currentDay = day;
            paidToday = 0;
        }
        require(paidThisHour + amount <= hourlyCap, "hourly cap");
        require(paidToday + amount <= dailyCap, "daily cap");
        paidThisHour += amount;
        paidToday += amount;
        paidAt[payoutId] = block.number;
        _send(to, amount);
        emit Paid(payoutId, to, amount);
    }

    /// What `pay` could still pay now before a cap refuses it.
    function headroom() external view returns (uint256 hourLeft, uint256 dayLeft) {
        uint256 usedHour = block.timestamp / 1 hours == currentHour ? paidThisHour : 0;
        uint256 usedDay = block.timestamp / 1 days == currentDay ? paidToday : 0;
        hourLeft = hourlyCap > usedHour ? hourlyCap - usedHour : 0;
        dayLeft = dailyCap > usedDay ? dailyCap - usedDay : 0;
    }

    function setPayer(address next) external onlyOwner {
        require(next != address(0), "zero address");
        emit PayerChanged(payer, next);
        payer = next;
    }

    function setOwner(address next) external onlyOwner {
        require(next != address(0), "zero address");
        emit OwnerChanged(owner, next);
        owner = next;
    }

    function setCaps(uint256 hourly, uint256 daily) external onlyOwner {
        require(hourly <= daily, "hourly cap above daily cap");
        hourlyCap = hourly;
        dailyCap = daily;
        emit CapsChanged(hourly, daily);
    }

    function setPaused(bool value) external onlyOwner {
        paused = value;
        emit PausedChanged(value);
    }

    /// Moves `amount` of the float to a cold address of the owner's choosing.
    function moveToCold(address to, uint256 amount) external onlyOwner {
        require(to != address(0) && to != address(this), "bad recipient");
        _send(to, amount);
        emit MovedToCold(to, amount);
    }

    /// EIP-1271: the vault's statements are its owner's signatures.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        // Low s only (EIP-2): the malleable twin is not a second signature.
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return 0xffffffff;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    /// A token transfer that accepts USDT's missing return value and refuses `false`.
    function _send(address to, uint256 amount) private {
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSignature("transfer(address,uint256)", to, amount));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "token transfer failed");
    }
}
