// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "./SandboxPermit2.sol";

interface ISandboxERC20Permit {
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;
}

/// x402's `upto` settlement contract for the local sandbox chain only, written from the ABI and witness types
/// x402's EVM package publishes (x402UptoPermit2ProxyABI, uptoPermit2WitnessTypes): the facilitator named in the buyer's
/// signed witness settles any amount up to the signed maximum, to the payee the witness names, through Permit2.
/// `settleWithPermit` first spends the buyer's EIP-2612 permit that lets Permit2 move the token, so the buyer never
/// needs gas for an approval. Placed at x402's upto proxy address with anvil_setCode (no constructor, no immutables).
contract SandboxUptoPermit2Proxy {
    struct Witness {
        address to;
        address facilitator;
        uint256 validAfter;
    }

    struct EIP2612Permit {
        uint256 value;
        uint256 deadline;
        bytes32 r;
        bytes32 s;
        uint8 v;
    }

    address public constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;
    bytes32 public constant WITNESS_TYPEHASH = keccak256("Witness(address to,address facilitator,uint256 validAfter)");
    string public constant WITNESS_TYPE_STRING =
        "Witness witness)TokenPermissions(address token,uint256 amount)Witness(address to,address facilitator,uint256 validAfter)";

    /// 1 while a settlement runs: the token or Permit2 cannot call back into another one.
    uint256 private _entered;

    event Settled();
    event SettledWithPermit();

    error AmountExceedsPermitted();
    error InvalidDestination();
    error InvalidOwner();
    error PaymentTooEarly();
    error Permit2612AmountMismatch();
    error ReentrancyGuardReentrantCall();
    error UnauthorizedFacilitator();

    modifier nonReentrant() {
        if (_entered == 1) revert ReentrancyGuardReentrantCall();
        _entered = 1;
        _;
        _entered = 0;
    }

    function settle(
        SandboxPermit2.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        _settle(permit, amount, owner, witness, signature);
        emit Settled();
    }

    function settleWithPermit(
        EIP2612Permit calldata permit2612,
        SandboxPermit2.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) external nonReentrant {
        if (permit2612.value < permit.permitted.amount) revert Permit2612AmountMismatch();
        // A permit someone already spent (front-run, or an allowance already in place) must not block the payment:
        // Permit2's transfer below fails by itself if the allowance is short.
        try ISandboxERC20Permit(permit.permitted.token).permit(owner, PERMIT2, permit2612.value, permit2612.deadline, permit2612.v, permit2612.r, permit2612.s) {} catch {}
        _settle(permit, amount, owner, witness, signature);
        emit SettledWithPermit();
    }

    function _settle(
        SandboxPermit2.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        Witness calldata witness,
        bytes calldata signature
    ) private {
        if (owner == address(0)) revert InvalidOwner();
        if (witness.to == address(0)) revert InvalidDestination();
        if (msg.sender != witness.facilitator) revert UnauthorizedFacilitator();
        if (block.timestamp < witness.validAfter) revert PaymentTooEarly();
        if (amount > permit.permitted.amount) revert AmountExceedsPermitted();
        bytes32 witnessHash = keccak256(abi.encode(WITNESS_TYPEHASH, witness.to, witness.facilitator, witness.validAfter));
        SandboxPermit2(PERMIT2).permitWitnessTransferFrom(
            permit,
            SandboxPermit2.SignatureTransferDetails({to: witness.to, requestedAmount: amount}),
            owner,
            witnessHash,
            WITNESS_TYPE_STRING,
            signature
        );
    }
}
