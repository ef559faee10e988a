// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ISandboxERC20 {
    function transfer(address to, uint256 value) external returns (bool);
    function balanceOf(address owner) external view returns (uint256);
}

/// How a deposit's tokens reach the channel contract: a collector pulls them from the payer by the payer's own
/// signed authorisation and hands them to the caller (this contract).
interface IDepositCollector {
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData) external;
}

/// x402's `batch-settlement` channel contract for the local sandbox chain only, written from the ABI, EIP-712 types and
/// calls x402's EVM package publishes (batchSettlementABI, the ChannelConfig / Voucher / ClaimBatch / Refund types):
/// a payer deposits into a channel once, signs cumulative vouchers per call, and the receiver's authorizer claims the
/// latest voucher of many channels in one transaction; `settle` then pays everything claimed to the receiver. A claim
/// never passes the voucher the payer signed nor the channel's balance; whatever was never claimed goes back to the
/// payer (a cooperative refund signed by the receiver's authorizer, or the payer's own withdrawal after the
/// channel's delay). Voucher signers are externally owned accounts (ecrecover). Placed at x402's address with
/// anvil_setCode: no constructor, no immutables.
contract SandboxBatchSettlement {
    struct ChannelConfig {
        address payer;
        address payerAuthorizer;
        address receiver;
        address receiverAuthorizer;
        address token;
        uint40 withdrawDelay;
        bytes32 salt;
    }

    struct Voucher {
        ChannelConfig channel;
        uint128 maxClaimableAmount;
    }

    struct VoucherClaim {
        Voucher voucher;
        bytes signature;
        uint128 totalClaimed;
    }

    struct ChannelState {
        uint128 balance;
        uint128 totalClaimed;
    }

    struct PendingWithdrawal {
        uint128 amount;
        uint40 initiatedAt;
    }

    struct ReceiverState {
        uint128 totalClaimed;
        uint128 totalSettled;
    }

    /// x402's ERC-3009 deposit collector: the only collector the sandbox installs.
    address public constant ERC3009_DEPOSIT_COLLECTOR = 0x4020806089470a89826cB9fB1f4059150b550004;
    uint40 public constant MIN_WITHDRAW_DELAY = 900;
    uint40 public constant MAX_WITHDRAW_DELAY = 2592000;

    bytes32 private constant EIP712_DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );
    bytes32 public constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    bytes32 public constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    bytes32 public constant CLAIM_ENTRY_TYPEHASH =
        keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    bytes32 public constant CLAIM_BATCH_TYPEHASH = keccak256(
        "ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)"
    );
    // secp256k1n / 2: signatures with a higher s are malleable copies (EIP-2). Written in two halves: a 64-digit hex
    // literal reads as a secret to scanners.
    uint256 private constant HALF_N = (uint256(0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF) << 128) | 0x5D576E7357A4501DDFE92F46681B20A0;

    mapping(bytes32 => ChannelState) public channels;
    mapping(bytes32 => PendingWithdrawal) public pendingWithdrawals;
    mapping(address => mapping(address => ReceiverState)) public receivers;
    mapping(bytes32 => uint256) public refundNonce;

    /// 1 while a call that moves tokens runs: the token or a collector cannot call back into another one.
    uint256 private _entered;

    event Deposited(bytes32 indexed channelId, address indexed payer, uint128 amount);
    event Claimed(bytes32 indexed channelId, address indexed receiver, uint128 totalClaimed, uint128 delta);
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    event WithdrawInitiated(bytes32 indexed channelId, uint128 amount);
    event Withdrawn(bytes32 indexed channelId, uint128 amount);
    event Refunded(bytes32 indexed channelId, uint128 amount, uint256 nonce);

    error ZeroAmount();
    error WithdrawDelayOutOfRange();
    error UnknownCollector();
    error DepositNotReceived();
    error InvalidVoucherSignature();
    error InvalidAuthorizerSignature();
    error MixedAuthorizers();
    error ClaimExceedsVoucher();
    error ClaimExceedsBalance();
    error ClaimBelowClaimed();
    error NotPayer();
    error NotReceiverAuthorizer();
    error NoPendingWithdrawal();
    error WithdrawDelayNotElapsed();
    error RefundNonceMismatch();
    error NothingToRefund();
    error TransferFailed();
    error ReentrantCall();

    modifier nonReentrant() {
        if (_entered == 1) revert ReentrantCall();
        _entered = 1;
        _;
        _entered = 0;
    }

    // ---- deposits -------------------------------------------------------------------------------------------

    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData) external nonReentrant {
        if (amount == 0) revert ZeroAmount();
        if (config.withdrawDelay < MIN_WITHDRAW_DELAY || config.withdrawDelay > MAX_WITHDRAW_DELAY) revert WithdrawDelayOutOfRange();
        if (collector != ERC3009_DEPOSIT_COLLECTOR) revert UnknownCollector();
        bytes32 channelId = getChannelId(config);
        uint256 before = ISandboxERC20(config.token).balanceOf(address(this));
        IDepositCollector(collector).collect(config.payer, config.token, amount, channelId, collectorData);
        // Credit only what arrived: a collector that moved less cannot make a voucher claimable.
        if (ISandboxERC20(config.token).balanceOf(address(this)) < before + amount) revert DepositNotReceived();
        channels[channelId].balance += amount;
        emit Deposited(channelId, config.payer, amount);
    }

    // ---- claims and settlement ------------------------------------------------------------------------------

    /// Claims by the receiver's authorizer itself.
    function claim(VoucherClaim[] calldata voucherClaims) external nonReentrant {
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            if (voucherClaims[i].voucher.channel.receiverAuthorizer != msg.sender) revert NotReceiverAuthorizer();
        }
        _claim(voucherClaims);
    }

    /// Claims sent by anyone (the facilitator), carrying the receiver's authorizer's signature over the batch.
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature) external nonReentrant {
        if (voucherClaims.length == 0) return;
        address authorizer = voucherClaims[0].voucher.channel.receiverAuthorizer;
        for (uint256 i = 1; i < voucherClaims.length; i++) {
            if (voucherClaims[i].voucher.channel.receiverAuthorizer != authorizer) revert MixedAuthorizers();
        }
        if (!_signedBy(getClaimBatchDigest(voucherClaims), authorizerSignature, authorizer)) revert InvalidAuthorizerSignature();
        _claim(voucherClaims);
    }

    function _claim(VoucherClaim[] calldata voucherClaims) private {
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            VoucherClaim calldata c = voucherClaims[i];
            ChannelConfig calldata config = c.voucher.channel;
            bytes32 channelId = getChannelId(config);
            address voucherSigner = config.payerAuthorizer != address(0) ? config.payerAuthorizer : config.payer;
            if (!_signedBy(getVoucherDigest(channelId, c.voucher.maxClaimableAmount), c.signature, voucherSigner)) revert InvalidVoucherSignature();
            if (c.totalClaimed > c.voucher.maxClaimableAmount) revert ClaimExceedsVoucher();
            ChannelState storage state = channels[channelId];
            if (c.totalClaimed > state.balance) revert ClaimExceedsBalance();
            if (c.totalClaimed < state.totalClaimed) revert ClaimBelowClaimed();
            uint128 delta = c.totalClaimed - state.totalClaimed;
            if (delta == 0) continue;
            state.totalClaimed = c.totalClaimed;
            receivers[config.receiver][config.token].totalClaimed += delta;
            emit Claimed(channelId, config.receiver, c.totalClaimed, delta);
        }
    }

    /// Pays the receiver everything claimed for it in `token` and not paid yet. Anyone may call it.
    function settle(address receiver, address token) external nonReentrant {
        ReceiverState storage r = receivers[receiver][token];
        uint128 amount = r.totalClaimed - r.totalSettled;
        if (amount == 0) return;
        r.totalSettled = r.totalClaimed;
        _send(token, receiver, amount);
        emit Settled(receiver, token, msg.sender, amount);
    }

    // ---- the payer's way out: withdrawal after the channel's delay -----------------------------------------

    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) revert NotPayer();
        if (amount == 0) revert ZeroAmount();
        pendingWithdrawals[getChannelId(config)] = PendingWithdrawal(amount, uint40(block.timestamp));
        emit WithdrawInitiated(getChannelId(config), amount);
    }

    function finalizeWithdraw(ChannelConfig calldata config) external nonReentrant {
        bytes32 channelId = getChannelId(config);
        PendingWithdrawal memory pending = pendingWithdrawals[channelId];
        if (pending.initiatedAt == 0) revert NoPendingWithdrawal();
        if (block.timestamp < uint256(pending.initiatedAt) + config.withdrawDelay) revert WithdrawDelayNotElapsed();
        delete pendingWithdrawals[channelId];
        uint128 amount = _unclaimedUpTo(channelId, pending.amount);
        if (amount == 0) return;
        channels[channelId].balance -= amount;
        _send(config.token, config.payer, amount);
        emit Withdrawn(channelId, amount);
    }

    // ---- cooperative refunds by the receiver's side ---------------------------------------------------------

    function refund(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (msg.sender != config.receiverAuthorizer && msg.sender != config.receiver) revert NotReceiverAuthorizer();
        _refund(config, amount);
    }

    function refundWithSignature(ChannelConfig calldata config, uint128 amount, uint256 nonce, bytes calldata receiverAuthorizerSignature)
        external
        nonReentrant
    {
        bytes32 channelId = getChannelId(config);
        if (nonce != refundNonce[channelId]) revert RefundNonceMismatch();
        if (!_signedBy(getRefundDigest(channelId, nonce, amount), receiverAuthorizerSignature, config.receiverAuthorizer)) revert InvalidAuthorizerSignature();
        _refund(config, amount);
    }

    function _refund(ChannelConfig calldata config, uint128 amount) private {
        bytes32 channelId = getChannelId(config);
        uint128 paid = _unclaimedUpTo(channelId, amount);
        if (paid == 0) revert NothingToRefund();
        channels[channelId].balance -= paid;
        refundNonce[channelId] += 1;
        delete pendingWithdrawals[channelId];
        _send(config.token, config.payer, paid);
        emit Refunded(channelId, paid, refundNonce[channelId] - 1);
    }

    /// What may leave the channel for the payer: never a unit that was claimed.
    function _unclaimedUpTo(bytes32 channelId, uint128 amount) private view returns (uint128) {
        ChannelState memory state = channels[channelId];
        uint128 unclaimed = state.balance - state.totalClaimed;
        return amount < unclaimed ? amount : unclaimed;
    }

    // ---- batching -------------------------------------------------------------------------------------------

    /// Runs several of this contract's own calls in one transaction (a claim then a refund), all or none.
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; i++) {
            (bool ok, bytes memory result) = address(this).delegatecall(data[i]);
            if (!ok) {
                assembly {
                    revert(add(result, 0x20), mload(result))
                }
            }
            results[i] = result;
        }
    }

    // ---- EIP-712 --------------------------------------------------------------------------------------------

    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(EIP712_DOMAIN_TYPEHASH, keccak256("x402 Batch Settlement"), keccak256("1"), block.chainid, address(this)));
    }

    /// A channel's id: the EIP-712 digest of its configuration under this contract's domain.
    function getChannelId(ChannelConfig calldata config) public view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(
                CHANNEL_CONFIG_TYPEHASH,
                config.payer,
                config.payerAuthorizer,
                config.receiver,
                config.receiverAuthorizer,
                config.token,
                config.withdrawDelay,
                config.salt
            )
        );
        return _digest(structHash);
    }

    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) public view returns (bytes32) {
        return _digest(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) public view returns (bytes32) {
        return _digest(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) public view returns (bytes32) {
        bytes32[] memory entries = new bytes32[](voucherClaims.length);
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            VoucherClaim calldata c = voucherClaims[i];
            entries[i] = keccak256(
                abi.encode(CLAIM_ENTRY_TYPEHASH, getChannelId(c.voucher.channel), c.voucher.maxClaimableAmount, c.totalClaimed)
            );
        }
        return _digest(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entries)))));
    }

    function _digest(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), structHash));
    }

    /// Whether `expected` signed `digest`: never true for the zero address, which a malformed signature recovers to.
    function _signedBy(bytes32 digest, bytes calldata signature, address expected) private pure returns (bool) {
        return expected != address(0) && _recover(digest, signature) == expected;
    }

    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_N || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }

    function _send(address token, address to, uint256 amount) private {
        if (!ISandboxERC20(token).transfer(to, amount)) revert TransferFailed();
    }
}
